package server

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/model"
)

// benchServer holds n alerts in one project, a quarter of them OPEN.
func benchServer(b *testing.B, n int) *Server {
	b.Helper()
	f := fixture.Default()
	project := f.Projects[0]["id"].(string)
	statuses := []string{api.StatusOpen, api.StatusClosed, api.StatusClosed, api.StatusClosed}
	for i := 0; i < n; i++ {
		f.Alerts = append(f.Alerts, alert.NewDoc(doc{"id": fmt.Sprintf("5f1a%020x", i), "groupId": project, "eventTypeName": "HOST_DOWN",
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
// The pages of 200 go round every page of the data, as a client walking a
// list does, rather than find one page in the cache each time.
func BenchmarkListAlertsPage(b *testing.B) {
	for _, n := range []int{1000, 1_000_000} {
		s := benchServer(b, n)
		project := s.store.Seed().Projects[0]["id"].(string)
		for _, q := range []struct {
			name   string
			status string
			size   int
		}{
			{"itemsPerPage=20&pageNum=2", "", 20},
			{"status=OPEN&itemsPerPage=20&pageNum=2", api.StatusOpen, 20},
			{"status=OPEN&itemsPerPage=200&pageNum=1..", api.StatusOpen, 200},
		} {
			b.Run(fmt.Sprintf("alerts=%d/%s", n, q.name), func(b *testing.B) {
				var set *alert.Set
				s.store.View(func(st *model.State) { set = st.ProjectAlerts(project) })
				f := alert.Filter{Status: q.status}
				_, total := set.Page(f, 0, 0)
				pages := max(1, total/q.size)
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					offset := q.size
					if q.size == 200 {
						offset = (i * 7919 % pages) * q.size
					}
					recs, total := set.Page(f, offset, q.size)
					if len(recs) != q.size || total == 0 {
						b.Fatal(len(recs), total)
					}
				}
			})
		}
	}
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
		nonce := s.digest.Nonce()
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

// loadedServer serves n alerts of one project read from a fixture file, as
// `omctl server --fixtures` reads them (alert JSON in arenas), with one
// GLOBAL_OWNER key; it returns the server, the project and the key.
func loadedServer(b *testing.B, n int) (*Server, string, [2]string) {
	b.Helper()
	const project, pub, priv = "5e2b0c2e8f9d4b0012340001", "benchowner", "11111111-aaaa-4bbb-8ccc-00000000b3c4"
	path := filepath.Join(b.TempDir(), "fixture.json")
	file, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(file, 1<<20)
	fmt.Fprintf(w, `{"orgs":[{"id":"5e1a0c2e8f9d4b0012340001","name":"Bench"}],"projects":[{"id":%q,"name":"bench","orgId":"5e1a0c2e8f9d4b0012340001"}],`, project)
	fmt.Fprintf(w, `"apiKeys":[{"id":"5f4d0c2e8f9d4b0012340001","desc":"bench","publicKey":%q,"privateKey":%q,"roles":[{"roleName":"GLOBAL_OWNER"}]}],"alerts":[`, pub, priv)
	events := []string{"HOST_DOWN", "OUTSIDE_METRIC_THRESHOLD", "REPLICA_SET", "BACKUP", "OPLOG_BEHIND"}
	statuses := []string{"OPEN", "CLOSED", "CLOSED", "TRACKING"}
	for i := range n {
		if i > 0 {
			w.WriteByte(',')
		}
		created := start.Add(time.Duration(i) * time.Second).Format(time.RFC3339)
		fmt.Fprintf(w, `{"id":"5f1a%020x","groupId":%q,"eventTypeName":%q,"status":%q,"created":%q,"updated":%q,"lastNotified":%q,"hostnameAndPort":"db-%d.example.com:27017","replicaSetName":"rs%d"}`,
			i, project, events[i%len(events)], statuses[i%len(statuses)], created, created, created, i%50, i%3)
	}
	w.WriteString("]}\n")
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	file.Close()
	f, err := fixture.LoadFixtures(path)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(Options{Fixtures: f, Clock: store.VirtualClock(start.Add(time.Duration(n) * time.Second))})
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	return s, project, [2]string{pub, priv}
}

// discardWriter is a ResponseWriter that keeps the status and drops the
// body, so that a benchmark counts the server's work, not a recorder's.
type discardWriter struct {
	header http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.header }
func (w *discardWriter) WriteHeader(code int)        { w.status = code }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }

// BenchmarkServeAlertsPage is a digest-authenticated GET of a page of 500
// alerts through the whole handler, the collector's share included, among
// 1,000 and 1,000,000 alerts (compare their ns/op: docs/performance.md).
// Pages go round the first 200 (all there are among 1,000).
func BenchmarkServeAlertsPage(b *testing.B) {
	for _, n := range []int{1000, 1_000_000} {
		s, project, key := loadedServer(b, n)
		b.Run(fmt.Sprintf("alerts=%d", n), func(b *testing.B) {
			nonce := s.digest.Nonce()
			pages := min(200, (n+499)/500)
			b.ReportAllocs()
			for i := range b.N {
				uri := fmt.Sprintf("%s/groups/%s/alerts?itemsPerPage=500&pageNum=%d", apiBase, project, 1+i%pages)
				req := httptest.NewRequest("GET", uri, nil)
				req.Header.Set("Authorization", signed(key[0], key[1], "GET", uri, nonce, i+1))
				w := &discardWriter{header: http.Header{}}
				s.ServeHTTP(w, req)
				if w.status != 200 {
					b.Fatalf("page %d: %d", 1+i%pages, w.status)
				}
			}
		})
		s.Close()
	}
}

// BenchmarkCollectAmongAlerts is one whole collection of the heap of a
// server holding 1,000 or 1,000,000 alerts: what each run of the collector
// costs as garbage from requests makes it run (docs/performance.md).
func BenchmarkCollectAmongAlerts(b *testing.B) {
	for _, n := range []int{1000, 1_000_000} {
		s, _, _ := loadedServer(b, n)
		b.Run(fmt.Sprintf("alerts=%d", n), func(b *testing.B) {
			runtime.GC() // sweeps what loading left, which is not the point
			before := processCPU()
			b.ResetTimer()
			for range b.N {
				runtime.GC()
			}
			// The CPU the collector used, steadier than the wall time on a
			// machine that other work shares.
			b.ReportMetric(float64(processCPU()-before)/float64(b.N), "cpu-ns/op")
		})
		s.Close()
	}
}
