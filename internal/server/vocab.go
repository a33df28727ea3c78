package server

import (
	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
)

// doc is a JSON-shaped document.
type doc = rules.Doc

const apiBase = api.BasePath
