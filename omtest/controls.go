package omtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/icholy/digest"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
)

// The controls are sent to the server over HTTP, as a test outside Go
// sends them: their rules (a clock move made in slices that sends what
// falls due in time order, the wait for the first attempt of each
// webhook, the checks of every field and the errors they answer) are
// those of the handlers, with nothing to keep in step here.

// Event is a condition reported to the alert engine (Report): an event
// that holds or has cleared, or a metric sample.
type Event struct {
	// GroupID is the project's id; empty means ProjectID().
	GroupID string
	// EventTypeName is one of the event types of the API, such as
	// HOST_DOWN; empty for a metric sample.
	EventTypeName string
	// Target says what the condition is about; the configurations'
	// matchers are held against it.
	Target Target
	// Resolved says the condition has cleared: the alerts it raised close
	// (or, when still TRACKING, are cancelled).
	Resolved bool

	// MetricName, when set, makes the event a metric sample of Value in
	// Units (empty: the threshold's units), held against the
	// configurations' metricThreshold, in place of EventTypeName and
	// Resolved.
	MetricName string
	Value      float64
	Units      string
}

// Target is what a condition is about. Empty fields are not sent.
type Target struct {
	HostID          string
	HostnameAndPort string
	TypeName        string
	ReplicaSetName  string
	ClusterID       string
	ClusterName     string
	ShardName       string
}

// Request is a request of the server's journal.
type Request struct {
	Time   time.Time // on the server's clock
	Method string
	// Path is the path after the API base, such as /groups/{id}/alerts.
	Path string
	// Query is the query string, without "?".
	Query string
	// Status is the status answered; 0 when a fault closed the
	// connection without an answer.
	Status int
	// ErrorCode is the errorCode of an error answer.
	ErrorCode string
	// Caller is the public key or user name of the credentials, empty
	// for a request without valid ones.
	Caller string
	// Body is the JSON body as received, every secret field replaced by
	// "<redacted>"; nil when there was none, or it was not JSON.
	Body json.RawMessage
}

// Notification is an entry of the notification log.
type Notification struct {
	ID            string
	AlertID       string
	AlertConfigID string
	GroupID       string
	// Global is true for a notification of a global alert configuration.
	Global bool
	// Event is alert.open, alert.update, alert.acknowledge, alert.close or
	// alert.cancel.
	Event string
	// TypeName is the kind of notification: WEBHOOK, EMAIL, GROUP, ...
	TypeName string
	// SentAt is when it was sent, on the server's clock: its due time.
	SentAt time.Time
	// Target is the notification as the alert configuration has it,
	// secrets redacted.
	Target map[string]any
	// Delivery is how far a webhook got; RECORDED for other kinds.
	Delivery Delivery
}

// Delivery is the state of a notification's delivery.
type Delivery struct {
	// Status is RECORDED (not delivered: every kind but WEBHOOK),
	// PENDING, DELIVERED or FAILED.
	Status           string
	Attempts         int
	LastResponseCode int
	LastError        string
}

// Fault makes the requests it matches fail (AddFault). A request matched
// waits Delay, then gets Status and its error body, or with Reset has its
// connection closed without an answer; with neither it is served after the
// delay. A faulted request changes nothing.
type Fault struct {
	// Method limits the fault to one method; empty matches every one.
	Method string
	// Path is matched against the path after the API base: * matches one
	// segment, ** zero or more, as in /groups/*/alerts.
	Path string
	// Status is a 4xx or 5xx status to answer; 0 for none.
	Status int
	// ErrorCode is the errorCode of the answer; empty: the status's own
	// (503 SERVICE_UNAVAILABLE, 429 RATE_LIMITED, ...).
	ErrorCode string
	// RetryAfter, in whole seconds, sets a Retry-After header; 0: none.
	RetryAfter time.Duration
	// Delay is how long a matched request waits first.
	Delay time.Duration
	// Times is how many requests the fault applies to, then it is gone;
	// 0: every request it matches.
	Times int
	// Probability is the share of matching requests it applies to; 0
	// means 1, every one.
	Probability float64
	// Reset closes the connection without an answer.
	Reset bool
}

// Advance moves the server's clock forward by d, as POST /_omctl/clock
// {"advance": d} does: alerts whose delay passed open, and every
// notification that falls due up to the new time is sent, in time order,
// before Advance returns (for a webhook, its first attempt is made).
func (s *Server) Advance(d time.Duration) {
	s.t.Helper()
	s.control(fmt.Sprintf("Advance(%s)", d), api.MoveClock, map[string]string{"advance": d.String()}, nil)
}

// Report reports conditions to the alert engine, as POST /_omctl/events
// does, all or nothing: alerts open, change or close as the alert
// configurations of their project say, and the notifications due at once
// are sent before Report returns.
func (s *Server) Report(events ...Event) {
	s.t.Helper()
	items := make([]map[string]any, len(events))
	for i, e := range events {
		items[i] = s.eventBody(e)
	}
	s.control("Report", api.ReportEvents, items, nil)
}

// eventBody is e as POST /_omctl/events takes it.
func (s *Server) eventBody(e Event) map[string]any {
	item := map[string]any{}
	if e.GroupID == "" {
		e.GroupID = s.projectID
	}
	if e.GroupID != "" {
		item["groupId"] = e.GroupID
	}
	target := map[string]string{}
	for name, v := range map[string]string{"hostId": e.Target.HostID, "hostnameAndPort": e.Target.HostnameAndPort,
		"typeName": e.Target.TypeName, "replicaSetName": e.Target.ReplicaSetName, "clusterId": e.Target.ClusterID,
		"clusterName": e.Target.ClusterName, "shardName": e.Target.ShardName} {
		if v != "" {
			target[name] = v
		}
	}
	if len(target) > 0 {
		item["target"] = target
	}
	// What is given is sent, and the server says what is wrong with it
	// (both names, or neither).
	if e.EventTypeName != "" {
		item["eventTypeName"] = e.EventTypeName
	}
	if e.Resolved {
		item["resolved"] = true
	}
	if e.MetricName != "" {
		item["metricName"], item["value"] = e.MetricName, e.Value
		if e.Units != "" {
			item["units"] = e.Units
		}
	}
	return item
}

// Requests returns the server's journal of API requests, oldest first,
// as GET /_omctl/requests shows it. Requests to the controls are not in
// it.
func (s *Server) Requests() []Request {
	s.t.Helper()
	entries := listAll[api.JournalEntry](s, "Requests", api.ListRequests)
	out := make([]Request, len(entries))
	for i, e := range entries {
		out[i] = Request{Time: s.parseTime(e.Time), Method: e.Method, Path: strings.TrimPrefix(e.Path, api.BasePath),
			Query: e.Query, Status: e.Status, ErrorCode: e.ErrorCode, Caller: e.Caller, Body: e.Body}
	}
	return out
}

// Notifications returns the notification log, oldest first, as GET
// /_omctl/notifications shows it.
func (s *Server) Notifications() []Notification {
	s.t.Helper()
	entries := listAll[api.Notification](s, "Notifications", api.ListNotifications)
	out := make([]Notification, len(entries))
	for i, n := range entries {
		out[i] = Notification{ID: n.ID, AlertID: n.AlertID, AlertConfigID: n.AlertConfigID, GroupID: n.GroupID,
			Global: n.Global, Event: n.Event, TypeName: n.TypeName, SentAt: s.parseTime(n.SentAt), Target: n.Target,
			Delivery: Delivery{Status: n.Delivery.Status, Attempts: n.Delivery.Attempts,
				LastResponseCode: n.Delivery.LastResponseCode, LastError: n.Delivery.LastError}}
	}
	return out
}

// AddFault adds a fault, as POST /_omctl/faults does, and returns its id
// (for RemoveFault).
func (s *Server) AddFault(f Fault) string {
	s.t.Helper()
	body := map[string]any{"path": f.Path}
	set := func(name string, v any, given bool) {
		if given {
			body[name] = v
		}
	}
	set("method", f.Method, f.Method != "")
	set("status", f.Status, f.Status != 0)
	set("errorCode", f.ErrorCode, f.ErrorCode != "")
	if f.RetryAfter%time.Second != 0 {
		s.t.Fatalf("omtest: AddFault: RetryAfter %s is not a whole number of seconds, as a Retry-After header says it", f.RetryAfter)
	}
	set("retryAfter", int64(f.RetryAfter/time.Second), f.RetryAfter != 0)
	set("delay", f.Delay.String(), f.Delay != 0)
	set("times", f.Times, f.Times != 0)
	set("probability", f.Probability, f.Probability != 0)
	set("reset", true, f.Reset)
	var added api.Fault
	s.control(fmt.Sprintf("AddFault(%s)", strings.TrimSpace(f.Method+" "+f.Path)), api.AddFault, body, &added)
	return added.ID
}

// RemoveFault removes the fault AddFault returned id for, as DELETE
// /_omctl/faults/{id} does; a fault that is gone already (its Times used
// up) fails the test.
func (s *Server) RemoveFault(id string) {
	s.t.Helper()
	e := api.RemoveFault
	e.Pattern = strings.Replace(e.Pattern, "{fault_id}", id, 1)
	s.control(fmt.Sprintf("RemoveFault(%q)", id), e, nil, nil)
}

// Reset puts the data back to what the server started with, as POST
// /_omctl/reset does, and empties the journal, the notification log and
// the faults; the clock stays where it is.
func (s *Server) Reset() {
	s.t.Helper()
	s.control("Reset", api.ResetData, nil, nil)
}

// maxPage is the most items a control's list answers at once.
const maxPage = 500

// listAll reads every page of a control's list.
func listAll[T any](s *Server, what string, e api.Endpoint) []T {
	s.t.Helper()
	var all []T
	for page := 1; ; page++ {
		var list struct {
			Results    []T `json:"results"`
			TotalCount int `json:"totalCount"`
		}
		e := e
		e.Pattern += fmt.Sprintf("?itemsPerPage=%d&pageNum=%d", maxPage, page)
		s.control(what, e, nil, &list)
		all = append(all, list.Results...)
		if len(list.Results) < maxPage || len(all) >= list.TotalCount {
			return all
		}
	}
}

// parseTime reads a time the server wrote.
func (s *Server) parseTime(v string) time.Time {
	s.t.Helper()
	t, err := rules.ParseTimestamp(v)
	if err != nil {
		s.t.Fatalf("omtest: the server answered a time %q that cannot be read: %v", v, err)
	}
	return t
}

// control sends a control request, with body as JSON when not nil, and
// decodes the answer into out when not nil; a failure fails the test,
// naming what (the method called) and the server's answer.
func (s *Server) control(what string, e api.Endpoint, body, out any) {
	s.t.Helper()
	if s.closed.Load() {
		s.t.Fatalf("omtest: %s: the server is closed", what)
	}
	if err := s.send(s.controlAuth, e, body, out); err != nil {
		s.t.Fatalf("omtest: %s: %v", what, err)
	}
}

// send sends a control request signed by auth.
func (s *Server) send(auth *digest.Transport, e api.Endpoint, body, out any) error {
	var payload io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		payload = bytes.NewReader(data)
	}
	req, err := http.NewRequest(e.Method, s.root+e.Pattern, payload)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := auth.RoundTrip(req)
	if err != nil {
		return fmt.Errorf("%s %s: %v", e.Method, e.Pattern, err)
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(res.Body)
	if err != nil {
		return fmt.Errorf("%s %s: reading the answer: %v", e.Method, e.Pattern, err)
	}
	if res.StatusCode/100 != 2 {
		var apiErr struct {
			ErrorCode string `json:"errorCode"`
			Detail    string `json:"detail"`
		}
		if json.Unmarshal(answer, &apiErr) != nil || apiErr.Detail == "" {
			return fmt.Errorf("%s %s answered %s", e.Method, e.Pattern, res.Status)
		}
		return fmt.Errorf("%s %s answered %d %s: %s", e.Method, e.Pattern, res.StatusCode, apiErr.ErrorCode, apiErr.Detail)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return fmt.Errorf("%s %s: the answer is not what omtest reads: %v", e.Method, e.Pattern, err)
	}
	return nil
}
