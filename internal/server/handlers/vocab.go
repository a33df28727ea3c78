package handlers

import (
	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
)

// doc is a resource as stored: JSON-shaped, so fields the API does not
// name (from fixtures) survive and are returned.
type doc = rules.Doc

const (
	apiBase         = api.BasePath
	maxItemsPerPage = api.MaxItemsPerPage
	maxBodyBytes    = api.MaxBodyBytes

	groupLinkRel = "http://mms.mongodb.com/group"
)
