package server

import (
	"github.com/omctl/omctl/internal/api"
)

// doc is a resource as stored: JSON-shaped, so fields the API does not
// name (from fixtures) survive and are returned.
type doc = map[string]any

const (
	apiBase         = api.BasePath
	maxItemsPerPage = api.MaxItemsPerPage
	maxAPIKeysOrg   = 500
	maxBodyBytes    = api.MaxBodyBytes
	realm           = "MMS Public API"

	statusTracking  = api.StatusTracking
	statusOpen      = api.StatusOpen
	statusClosed    = api.StatusClosed
	statusCancelled = api.StatusCancelled

	groupLinkRel = "http://mms.mongodb.com/group"
)

var alertStatuses = api.AlertStatuses
