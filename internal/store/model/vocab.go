package model

import (
	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
)

// doc is a resource as stored: JSON-shaped, so fields the API does not
// name (from fixtures) survive and are returned.
type doc = rules.Doc

const (
	statusTracking  = api.StatusTracking
	statusOpen      = api.StatusOpen
	statusClosed    = api.StatusClosed
	statusCancelled = api.StatusCancelled
)
