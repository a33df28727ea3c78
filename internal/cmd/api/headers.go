package api

import (
	"net/http"
	"strings"

	"github.com/omctl/omctl/internal/cmdutil"
)

// parseHeaders reads -H KEY:VALUE flags. The headers omctl must set itself
// (authentication, framing) are refused.
func parseHeaders(flags []string) (http.Header, error) {
	h := http.Header{}
	for _, f := range flags {
		k, v, ok := strings.Cut(f, ":")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t\"(),/;<=>?@[\\]{}") {
			return nil, cmdutil.FlagErrorf("invalid --header %q: want KEY:VALUE, such as 'Accept: application/json'", f)
		}
		switch http.CanonicalHeaderKey(k) {
		case "Authorization", "Host", "Content-Length", "Transfer-Encoding":
			return nil, cmdutil.FlagErrorf("--header %s is set by omctl itself and cannot be given", http.CanonicalHeaderKey(k))
		}
		h.Add(k, strings.TrimSpace(v))
	}
	return h, nil
}
