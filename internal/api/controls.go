package api

import (
	"encoding/json"
	"time"
)

// ControlBase is where omctl server keeps its test controls, on the base
// URL's host but outside the API's path (docs/server.md, Test controls).
const ControlBase = "/_omctl"

// Controls lists the test controls of omctl server: endpoints of their
// own, whose patterns are whole paths under ControlBase (a client takes
// such a path as it is), served, named and sent as the API's are.
var Controls []Endpoint

func control(name, method, pattern string) Endpoint {
	e := Endpoint{name, method, ControlBase + pattern}
	Controls = append(Controls, e)
	return e
}

// The controls, by name.
var (
	GetHealth         = control("GetHealth", "GET", "/health")
	ResetData         = control("ResetData", "POST", "/reset")
	GetClock          = control("GetClock", "GET", "/clock")
	MoveClock         = control("MoveClock", "POST", "/clock")
	ReportEvents      = control("ReportEvents", "POST", "/events")
	ListNotifications = control("ListNotifications", "GET", "/notifications")
	ListRequests      = control("ListRequests", "GET", "/requests")
	ClearRequests     = control("ClearRequests", "DELETE", "/requests")
	ListFaults        = control("ListFaults", "GET", "/faults")
	AddFault          = control("AddFault", "POST", "/faults")
	ClearFaults       = control("ClearFaults", "DELETE", "/faults")
	RemoveFault       = control("RemoveFault", "DELETE", "/faults/{fault_id}")
	DumpFixtures      = control("DumpFixtures", "GET", "/fixtures")
	// GetUI serves the page of omctl server and its assets ("" for the
	// page itself); StreamEvents its server-sent events.
	GetUI        = control("GetUI", "GET", "/ui/{asset...}")
	StreamEvents = control("StreamEvents", "GET", "/stream")
)

// Bounds of a fault (docs/server.md, Faults), checked by internal/rules.
const (
	// MaxFaultDelay is the longest delay: beyond the server's write
	// timeout no answer could be sent anyway.
	MaxFaultDelay   = 60 * time.Second
	MaxFaultPath    = 1024
	MaxRetryAfter   = 86400
	MaxFaultTimes   = 1 << 31
	MaxErrorCodeLen = 100
)

// FaultMethods are the methods a fault can be limited to.
var FaultMethods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// Fault is a fault as the controls show it.
type Fault struct {
	ID          string  `json:"id"`
	Method      string  `json:"method,omitempty"`
	Path        string  `json:"path"`
	Status      int     `json:"status,omitempty"`
	ErrorCode   string  `json:"errorCode,omitempty"`
	RetryAfter  *int64  `json:"retryAfter,omitempty"`
	Delay       string  `json:"delay,omitempty"`
	Times       *int64  `json:"times,omitempty"` // remaining; absent: no end
	Probability float64 `json:"probability"`
	Reset       bool    `json:"reset"`
}

// JournalEntry is a request of the journal, as ListRequests shows it.
type JournalEntry struct {
	ID         string          `json:"id"`
	Time       string          `json:"time"`
	Method     string          `json:"method"`
	Path       string          `json:"path"`
	Query      string          `json:"query,omitempty"`
	Status     int             `json:"status"` // 0: closed by a fault without an answer
	ErrorCode  string          `json:"errorCode,omitempty"`
	Caller     string          `json:"caller"`
	RemoteAddr string          `json:"remoteAddr"`
	Body       json.RawMessage `json:"body,omitempty"`
	// BodyBytes is the size of a body too large to keep.
	BodyBytes int `json:"bodyBytes,omitempty"`
}

// Notification is one entry of the notification log, as
// ListNotifications shows it.
type Notification struct {
	ID            string         `json:"id"`
	AlertID       string         `json:"alertId"`
	AlertConfigID string         `json:"alertConfigId"`
	GroupID       string         `json:"groupId"`
	Global        bool           `json:"global"`
	Event         string         `json:"event"`
	TypeName      string         `json:"typeName"`
	SentAt        string         `json:"sentAt"`
	Target        map[string]any `json:"target"`
	Delivery      DeliveryState  `json:"delivery"`
}

// DeliveryState is how far a notification's webhook delivery went.
type DeliveryState struct {
	Status           string `json:"status"`
	Attempts         int    `json:"attempts"`
	LastResponseCode int    `json:"lastResponseCode,omitempty"`
	LastError        string `json:"lastError,omitempty"`
	// Payload and Signature are what a webhook delivery sent (its body
	// and X-MMS-Signature header), shown only where asked for.
	Payload   json.RawMessage `json:"payload,omitempty"`
	Signature string          `json:"signature,omitempty"`
}

// Clock is the answer of GetClock and MoveClock.
type Clock struct {
	Now string `json:"now"`
}
