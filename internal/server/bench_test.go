package server

import (
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store"
)

// benchServer holds n alerts in one project, a quarter of them OPEN.
func benchServer(b *testing.B, n int) *Server {
	b.Helper()
	f := store.DefaultFixtures()
	project := f.Projects[0]["id"].(string)
	statuses := []string{api.StatusOpen, api.StatusClosed, api.StatusClosed, api.StatusClosed}
	for i := 0; i < n; i++ {
		f.Alerts = append(f.Alerts, store.NewAlertDoc(doc{"id": fmt.Sprintf("5f1a%020x", i), "groupId": project, "eventTypeName": "HOST_DOWN",
			"status": statuses[i%4], "created": rules.FormatTime(start.Add(time.Duration(i) * time.Second))}))
	}
	s, err := New(Options{Fixtures: f, Clock: store.VirtualClock(start)})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkListAlertsPage shows that the cost of a page does not grow with
// the collection: compare the 1000 and 1000000 cases (ns/op should match).
func BenchmarkListAlertsPage(b *testing.B) {
	for _, n := range []int{1000, 1_000_000} {
		s := benchServer(b, n)
		project := s.store.Seed().Projects[0]["id"].(string)
		for _, q := range []string{"itemsPerPage=20&pageNum=2", "status=OPEN&itemsPerPage=20&pageNum=2"} {
			b.Run(fmt.Sprintf("alerts=%d/%s", n, q), func(b *testing.B) {
				var set *store.AlertSet
				s.store.View(func(st *store.State) { set = st.ProjectAlerts(project) })
				f := store.AlertFilter{}
				if q[0] == 's' {
					f.Status = api.StatusOpen
				}
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					recs, total := set.Page(f, 20, 20)
					if len(recs) != 20 || total == 0 {
						b.Fatal(len(recs), total)
					}
				}
			})
		}
	}
	_ = httptest.NewRecorder
}

// BenchmarkGetAlertDigest is one digest-authenticated GET of an alert,
// through the whole handler, from clients running in parallel.
func BenchmarkGetAlertDigest(b *testing.B) {
	s := benchServer(b, 1000)
	project := s.store.Seed().Projects[0]["id"].(string)
	key := s.store.Seed().APIKeys[0]
	pub, priv := key["publicKey"].(string), key["privateKey"].(string)
	uri := apiBase + "/groups/" + project + "/alerts/" + fmt.Sprintf("5f1a%020x", 500)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		nonce := s.nonces.issue()
		nc := 0
		for pb.Next() {
			nc++
			req := httptest.NewRequest("GET", uri, nil)
			req.Header.Set("Authorization", signed(pub, priv, "GET", uri, nonce, nc))
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if rec.Code != 200 {
				b.Fatalf("%d %s", rec.Code, rec.Body)
			}
		}
	})
}
