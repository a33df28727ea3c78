package api

import (
	"net/url"
	"strings"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
)

// fullURLPath turns a full URL, as the API gives in links[].href, into the
// path to request. omctl sends its credentials to the base URL's server
// only, so a URL of another server is refused.
func fullURLPath(c *client.Client, path string) (string, error) {
	if !strings.HasPrefix(path, "http://") && !strings.HasPrefix(path, "https://") {
		return path, nil
	}
	u, err := url.Parse(path)
	if err != nil || u.Host == "" {
		return "", cmdutil.FlagErrorf("invalid URL %q: want a path such as /groups/{project_id}/alerts, or a URL of the API", path)
	}
	base, _ := url.Parse(c.URL("/", nil))
	if u.Scheme != base.Scheme || u.Host != base.Host {
		return "", cmdutil.FlagErrorf("%s is not on the server of the base URL (%s://%s): omctl sends its credentials to that server only", path, base.Scheme, base.Host)
	}
	if u.Path == "" {
		return "/", nil
	}
	return u.Path, nil
}
