package engine

import (
	"encoding/json"

	"github.com/omctl/omctl/internal/store/alert"
)

// Condition is one item of POST /_omctl/events: an event that holds or
// has cleared, or a metric sample.
type Condition struct {
	Index    int
	Project  string
	Event    string // OUTSIDE_METRIC_THRESHOLD for a sample
	Target   alert.Target
	Resolved bool

	Metric string // a sample's metric name; "" for an event
	Value  json.Number
	Units  string
}

func (c Condition) sample() bool { return c.Metric != "" }
