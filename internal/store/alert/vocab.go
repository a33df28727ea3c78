package alert

import (
	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
)

// doc is an alert as a JSON-shaped document.
type doc = rules.Doc

const (
	statusTracking  = api.StatusTracking
	statusOpen      = api.StatusOpen
	statusClosed    = api.StatusClosed
	statusCancelled = api.StatusCancelled
)
