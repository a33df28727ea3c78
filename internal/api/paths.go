package api

import (
	"strings"
)

// IsAPIPath reports whether p is under the API base path: the requests
// the journal records, faults match and --rate-limit counts.
func IsAPIPath(p string) bool {
	return p == BasePath || strings.HasPrefix(p, BasePath+"/")
}
