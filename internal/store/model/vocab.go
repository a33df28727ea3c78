package model

import (
	"github.com/omctl/omctl/internal/rules"
)

// doc is a resource as stored: JSON-shaped, so fields the API does not
// name (from fixtures) survive and are returned.
type doc = rules.Doc
