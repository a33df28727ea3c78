package omtest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/omtest"
)

// exampleT stands in for the *testing.T of a test, which an example does
// not have: in your tests, pass t itself. Fatalf panics, and done runs
// the cleanups.
type exampleT struct {
	testing.TB
	cleanups []func()
}

func (t *exampleT) Helper()                         {}
func (t *exampleT) Cleanup(f func())                { t.cleanups = append(t.cleanups, f) }
func (t *exampleT) Fatalf(format string, a ...any)  { panic(fmt.Sprintf(format, a...)) }
func (t *exampleT) Fatal(a ...any)                  { panic(fmt.Sprint(a...)) }
func (t *exampleT) Errorf(format string, a ...any)  { panic(fmt.Sprintf(format, a...)) }
func (t *exampleT) Logf(format string, args ...any) {}

func (t *exampleT) done() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}

// get sends a GET with client and decodes its JSON answer into out.
func get(client *http.Client, url string, out any) int {
	res, err := client.Get(url)
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			panic(err)
		}
	}
	return res.StatusCode
}

// send sends a request with a JSON body and returns its status.
func send(client *http.Client, method, url, body string) int {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		panic(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// A server with the demo data; Client signs requests as its owner key.
func ExampleNewServer() {
	t := &exampleT{} // in a test: the test's t
	defer t.done()

	srv := omtest.NewServer(t, omtest.WithDemo(), omtest.WithClock(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)))
	var project struct{ Name string }
	status := get(srv.Client(), srv.URL()+"/groups/"+srv.ProjectID(), &project)
	fmt.Println(status, project.Name)

	// Without the key's credentials: the digest challenge.
	fmt.Println(get(http.DefaultClient, srv.URL()+"/groups", nil))
	// Output:
	// 200 production
	// 401
}

// Report a condition; the alert it raises opens after its configuration's
// delay, which Advance makes pass at once.
func ExampleServer_Advance() {
	t := &exampleT{}
	defer t.done()
	srv := omtest.NewServer(t, omtest.WithClock(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)))
	send(srv.Client(), "POST", srv.URL()+"/groups/"+srv.ProjectID()+"/alertConfigs", `{
	  "eventTypeName": "HOST_DOWN", "enabled": true,
	  "notifications": [{"typeName": "GROUP", "delayMin": 5, "intervalMin": 10, "emailEnabled": true}]}`)

	srv.Report(omtest.Event{EventTypeName: "HOST_DOWN", Target: omtest.Target{HostnameAndPort: "db1.example.com:27017"}})
	fmt.Println(len(srv.Notifications()), "notifications")

	srv.Advance(15 * time.Minute)
	for _, n := range srv.Notifications() {
		fmt.Println(n.Event, n.TypeName, n.SentAt.Format(time.Kitchen))
	}
	// Output:
	// 0 notifications
	// alert.open GROUP 12:05AM
	// alert.update GROUP 12:15AM
}

// A fault that fails the next request to a project's alerts, and the
// journal that shows what the server answered.
func ExampleServer_AddFault() {
	t := &exampleT{}
	defer t.done()
	srv := omtest.NewServer(t)
	srv.AddFault(omtest.Fault{Method: "GET", Path: "/groups/*/alerts", Status: 503, Times: 1})

	alerts := srv.URL() + "/groups/" + srv.ProjectID() + "/alerts"
	fmt.Println(get(srv.Client(), alerts, nil))
	fmt.Println(get(srv.Client(), alerts, nil))
	for _, r := range srv.Requests() {
		fmt.Println(r.Method, strings.Replace(r.Path, srv.ProjectID(), "{id}", 1), r.Status, r.ErrorCode)
	}
	// Output:
	// 503
	// 200
	// GET /groups/{id}/alerts 503 SERVICE_UNAVAILABLE
	// GET /groups/{id}/alerts 200
}

// The journal holds each request's body with its secrets redacted.
func ExampleServer_Requests() {
	t := &exampleT{}
	defer t.done()
	srv := omtest.NewServer(t)
	send(srv.Client(), "POST", srv.URL()+"/groups/"+srv.ProjectID()+"/alertConfigs", `{
	  "eventTypeName": "HOST_DOWN", "enabled": true,
	  "notifications": [{"typeName": "WEBHOOK", "webhookUrl": "http://127.0.0.1:8080/hook", "webhookSecret": "s3cret", "delayMin": 0}]}`)

	r := srv.Requests()[0]
	var body struct {
		Notifications []map[string]any
	}
	json.Unmarshal(r.Body, &body)
	fmt.Println(r.Method, r.Status, r.Caller == srv.PublicKey())
	fmt.Println(body.Notifications[0]["webhookSecret"], body.Notifications[0]["webhookUrl"])
	// Output:
	// POST 200 true
	// <redacted> <redacted>
}
