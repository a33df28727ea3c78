package alert

import (
	"github.com/omctl/omctl/internal/rules"
)

// doc is an alert as a JSON-shaped document.
type doc = rules.Doc
