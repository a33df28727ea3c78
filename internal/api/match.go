package api

import "strings"

// Lookup finds the endpoint a request's method and path (under BasePath,
// or with it) are for, a {placeholder} matching any one segment.
func Lookup(method, path string) (Endpoint, bool) {
	path = strings.TrimPrefix(path, BasePath)
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	got := strings.Split(strings.Trim(path, "/"), "/")
	for _, e := range Endpoints {
		if e.Method != strings.ToUpper(method) {
			continue
		}
		want := strings.Split(strings.Trim(e.Pattern, "/"), "/")
		if len(want) != len(got) {
			continue
		}
		match := true
		for i, w := range want {
			if !strings.HasPrefix(w, "{") && w != got[i] {
				match = false
				break
			}
		}
		if match {
			return e, true
		}
	}
	return Endpoint{}, false
}
