package cmdutil

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/omctl/omctl/internal/api"
)

// projectByName resolves a project named by --project (or the profile)
// to its id through GET /groups/byName/{name}, once per run: every
// request of the run then names the project by its id.
func (f *Factory) projectByName(name string) (string, error) {
	if id, ok := f.projectIDs[name]; ok {
		return id, nil
	}
	c, err := f.Client()
	if err != nil {
		return "", err
	}
	from := f.Source("project_id")
	body, err := c.Get(context.Background(), api.GetProjectByName.Path(name), nil)
	if err != nil {
		return "", fmt.Errorf("project %q (from %s; not 24 hexadecimal digits, so read as a name): %w", name, from, err)
	}
	var p api.Project
	if err := json.Unmarshal(c.Content(body), &p); err != nil || !api.IsObjectID(p.ID) {
		return "", fmt.Errorf("project %q (from %s): the server's answer names no project id", name, from)
	}
	if f.projectIDs == nil {
		f.projectIDs = map[string]string{}
	}
	f.projectIDs[name] = p.ID
	return p.ID, nil
}
