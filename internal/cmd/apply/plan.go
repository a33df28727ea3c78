package apply

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/rules"
)

// Action is what apply does with one document.
type Action string

const (
	Create    Action = "create"
	Update    Action = "update"
	Unchanged Action = "unchanged"
	// Refused: the document asks what the API cannot do; nothing of it is sent.
	Refused Action = "refused"
)

// Plan is what apply would do with one document.
type Plan struct {
	Doc    *Document
	Label  string // KIND NAME
	Action Action
	// Before and After are the resource as the server has it and as it
	// would be, the fields the server manages left out (nil: none).
	Before, After any
	// Problems say, field by field, why a document is refused.
	Problems []string
	// write sends the change and returns what to say of it.
	write func(ctx context.Context, c *client.Client) (string, error)
	// done is set once the write was answered 2xx.
	done bool
	// invalid says the document itself is refused (its form, fields or
	// secret references), before anything was read for it.
	invalid bool
}

// Write sends the change of a plan to create or update through c, and
// returns what to say of it ("created OplogStore oplog-1").
func (pl *Plan) Write(ctx context.Context, c *client.Client) (string, error) {
	return pl.write(ctx, c)
}

// Planner reads the current resources and plans each document.
type Planner struct {
	Client    *client.Client
	ProjectID func() (string, error)
	OrgID     func() (string, error)
	// planned holds the stores the documents create or update, by kind
	// name, so a document naming one needs it on the server no sooner
	// than the plan puts it there.
	planned map[string]map[string]bool
}

// plannedStores lists the stores documents name, by kind.
func plannedStores(docs []*Document) map[string]map[string]bool {
	out := map[string]map[string]bool{"OplogStore": {}, "SnapshotStore": {}}
	for _, d := range docs {
		if set, ok := out[d.Kind.Name]; ok {
			set[d.Fields["id"].(string)] = true
		}
	}
	return out
}

// serverCheck refuses a plan whose write the server would refuse, by the
// server's own rules (internal/rules), so that a plan is refused whole
// before the first write rather than half applied.
func serverCheck(pl *Plan, body map[string]any, check func(rules.Doc) *rules.Error) {
	if pl.Action != Create && pl.Action != Update {
		return
	}
	doc, err := numbered(body)
	if err != nil {
		return
	}
	// A field the rules do not know can only be the server's own (the
	// documents were checked): the real service's answers may hold more
	// than the API names, and it takes them back.
	for k := range doc {
		if _, known := pl.Doc.Kind.Schema[k]; !known {
			delete(doc, k)
		}
	}
	if e := check(doc); e != nil {
		pl.Action = Refused
		pl.Problems = append(pl.Problems, "the server would refuse it: "+e.Rule())
	}
}

// Plan plans one document: only reads are sent.
func (p *Planner) Plan(ctx context.Context, d *Document) (*Plan, error) {
	switch d.Kind.Name {
	case "OplogStore":
		return p.store(ctx, d, api.CreateOplogStore.Path())
	case "SnapshotStore":
		return p.store(ctx, d, api.CreateSnapshotStore.Path())
	case "BackupJobsConfig":
		return p.backupJobs(ctx, d)
	case "AlertConfig":
		return p.alertConfig(ctx, d)
	case "GlobalAlertConfig":
		return p.globalAlertConfig(ctx, d)
	case "BackupConfig":
		return p.backupConfig(ctx, d)
	case "AccessList":
		return p.accessList(ctx, d)
	}
	return nil, fmt.Errorf("%s: no plan for kind %s", d.Source, d.Kind.Name)
}

// get reads one resource; nil without error when the server answers 404.
func (p *Planner) get(ctx context.Context, path string) (map[string]any, error) {
	body, err := p.Client.Get(ctx, path, nil)
	var apiErr *client.APIError
	if errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(p.Client.Content(body), &m); err != nil {
		return nil, fmt.Errorf("GET %s: the server's answer is not a JSON object", path)
	}
	return m, nil
}

// desired is the document without the fields the server manages and
// without the given identity fields.
func desired(d *Document, identity ...string) map[string]any {
	out := map[string]any{}
	for k, v := range d.Fields {
		if d.Kind.managed(k) || slices.Contains(identity, k) {
			continue
		}
		out[k] = v
	}
	return out
}

// current is the server's resource without what it manages.
func current(k *Kind, m map[string]any, identity ...string) map[string]any {
	out := map[string]any{}
	for key, v := range m {
		if k.managed(key) || slices.Contains(identity, key) {
			continue
		}
		out[key] = v
	}
	return out
}

// merge lays the document over the server's resource: a field the
// document leaves out keeps the server's value.
func merge(want, cur map[string]any) (send, before, after map[string]any, unknown []string) {
	send, after = map[string]any{}, map[string]any{}
	for k, v := range cur {
		send[k], after[k] = v, v
	}
	for _, k := range sortedKeys(want) {
		r := resolve(k, k, want[k], cur[k])
		send[k], after[k] = r.send, r.show
		unknown = append(unknown, r.unknown...)
	}
	return send, cur, after, unknown
}

// change fills a plan from the comparison: unchanged when equal, refused
// when a redacted value would have to be sent.
func change(pl *Plan, action Action, before, after any, unknown []string) {
	pl.Before, pl.After = before, after
	if action == Update && reflect.DeepEqual(before, after) {
		pl.Action = Unchanged
		return
	}
	pl.Action = action
	for _, u := range unknown {
		pl.Problems = append(pl.Problems, fmt.Sprintf("%s is redacted: the server does not show it and the document does not give it; to %s this resource, give the secret as a reference, ${env:NAME} or ${file:PATH} (omctl export --secret-refs writes them), or its real value", u, action))
	}
	if len(pl.Problems) > 0 {
		pl.Action = Refused
	}
}

func (p *Planner) store(ctx context.Context, d *Document, base string) (*Plan, error) {
	id := d.Fields["id"].(string)
	pl := &Plan{Doc: d, Label: d.Kind.Name + " " + id}
	path := base + "/" + url.PathEscape(id)
	cur, err := p.get(ctx, path)
	if err != nil {
		return nil, err
	}
	want := desired(d, "id")
	if cur == nil {
		send, _, after, unknown := merge(want, nil)
		send["id"] = id
		change(pl, Create, nil, after, unknown)
		serverCheck(pl, send, func(b rules.Doc) *rules.Error { return rules.CheckStore(b, storeKind(d), rules.Create, "") })
		pl.write = func(ctx context.Context, c *client.Client) (string, error) {
			_, err := c.Send(ctx, http.MethodPost, base, send)
			return "created " + pl.Label, err
		}
		return pl, nil
	}
	send, before, after, unknown := merge(want, current(d.Kind, cur, "id"))
	change(pl, Update, before, after, unknown)
	serverCheck(pl, send, func(b rules.Doc) *rules.Error { return rules.CheckStore(b, storeKind(d), rules.Replace, id) })
	pl.write = func(ctx context.Context, c *client.Client) (string, error) {
		_, err := c.Send(ctx, http.MethodPut, path, send)
		return "updated " + pl.Label, err
	}
	return pl, nil
}

func storeKind(d *Document) rules.StoreKind {
	if d.Kind.Name == "SnapshotStore" {
		return rules.SnapshotStore
	}
	return rules.OplogStore
}

// missingStores names the stores a backup jobs configuration's filters
// name that neither the server nor the documents have.
func (p *Planner) missingStores(ctx context.Context, body map[string]any) ([]string, error) {
	var problems []string
	for _, f := range []struct{ field, kind, base string }{
		{"oplogStoreFilter", "OplogStore", api.CreateOplogStore.Path()},
		{"snapshotStoreFilter", "SnapshotStore", api.CreateSnapshotStore.Path()},
	} {
		list, _ := body[f.field].([]any)
		for i, e := range list {
			m, _ := e.(map[string]any)
			id, _ := m["id"].(string)
			if id == "" || p.planned[f.kind][id] {
				continue
			}
			got, err := p.get(ctx, f.base+"/"+url.PathEscape(id))
			if err != nil {
				return nil, err
			}
			if got == nil {
				problems = append(problems, fmt.Sprintf("%s[%d] names the %s %s, which neither the server nor the documents have", f.field, i, f.kind, id))
			}
		}
	}
	return problems, nil
}

// project is the document's project field, else the profile's.
func (p *Planner) project(d *Document, field string) (string, error) {
	if s, _ := d.Fields[field].(string); s != "" {
		return s, nil
	}
	return p.ProjectID()
}

func (p *Planner) backupJobs(ctx context.Context, d *Document) (*Plan, error) {
	project, err := p.project(d, "id")
	if err != nil {
		return nil, err
	}
	pl := &Plan{Doc: d, Label: "BackupJobsConfig " + project}
	path := api.GetBackupJobConfig.Path(project)
	cur, err := p.get(ctx, path)
	if err != nil {
		return nil, err
	}
	action := Update
	if cur == nil {
		action = Create // a PUT creates it (docs/api.md, Backup jobs configuration)
	}
	send, before, after, unknown := merge(desired(d, "id"), current(d.Kind, cur, "id"))
	if cur == nil {
		before = nil
	}
	change(pl, action, before, after, unknown)
	if pl.Action != Unchanged {
		missing, err := p.missingStores(ctx, send)
		if err != nil {
			return nil, err
		}
		if len(missing) > 0 {
			pl.Action, pl.Problems = Refused, append(pl.Problems, missing...)
		}
	}
	serverCheck(pl, send, func(b rules.Doc) *rules.Error {
		return rules.BackupJobConfigBody().Check(b, "", rules.Doc{"id": project})
	})
	pl.write = func(ctx context.Context, c *client.Client) (string, error) {
		_, err := c.Send(ctx, http.MethodPut, path, send)
		return string(action) + "d " + pl.Label, err
	}
	return pl, nil
}

// alertConfig finds the configuration by id, or by the tag that holds
// its name (NameTag), and creates it when a name finds none.
func (p *Planner) alertConfig(ctx context.Context, d *Document) (*Plan, error) {
	project, err := p.project(d, "groupId")
	if err != nil {
		return nil, err
	}
	id, _ := d.Fields["id"].(string)
	name, _ := d.Fields["name"].(string)
	base := api.ListAlertConfigs.Path(project)
	pl := &Plan{Doc: d, Label: "AlertConfig " + name}
	if name == "" {
		pl.Label = "AlertConfig " + id
	}
	var cur map[string]any
	if id != "" {
		if cur, err = p.get(ctx, base+"/"+url.PathEscape(id)); err != nil {
			return nil, err
		}
		if cur == nil {
			pl.Action = Refused
			pl.Problems = []string{fmt.Sprintf("id %s: no such alert configuration in project %s; leave id out and give a name to create one", id, project)}
			return pl, nil
		}
	} else {
		var found []map[string]any
		for raw, err := range p.Client.Items(ctx, base, client.ListOptions{All: true, ItemsPerPage: 500}) {
			if err != nil {
				return nil, err
			}
			var m map[string]any
			if json.Unmarshal(raw, &m) == nil && hasTag(m, NameTag+name) {
				found = append(found, m)
			}
		}
		if len(found) > 1 {
			ids := make([]string, len(found))
			for i, m := range found {
				ids[i], _ = m["id"].(string)
			}
			pl.Action = Refused
			pl.Problems = []string{fmt.Sprintf("name %s: %d configurations carry the tag %s%s (%s); keep it on one, or give the document an id", name, len(found), NameTag, name, strings.Join(ids, ", "))}
			return pl, nil
		}
		if len(found) == 1 {
			cur = found[0]
		}
	}
	want := desired(d, "id", "groupId", "name")
	if name != "" {
		want["tags"] = withNameTag(want["tags"], cur, name)
	}
	if cur == nil {
		send, _, after, unknown := merge(want, nil)
		change(pl, Create, nil, after, unknown)
		if s, _ := want["eventTypeName"].(string); s == "" {
			pl.Action = Refused
			pl.Problems = append(pl.Problems, fmt.Sprintf("field eventTypeName is missing: no configuration carries the tag %s%s, and a new one needs it", NameTag, name))
		}
		serverCheck(pl, send, func(b rules.Doc) *rules.Error { return rules.CheckAlertConfig(b, rules.Doc{"groupId": project}) })
		pl.write = func(ctx context.Context, c *client.Client) (string, error) {
			body, err := c.Send(ctx, http.MethodPost, base, send)
			var made struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(c.Content(body), &made)
			return fmt.Sprintf("created %s (id %s)", pl.Label, made.ID), err
		}
		return pl, nil
	}
	curID, _ := cur["id"].(string)
	send, before, after, unknown := merge(want, current(d.Kind, cur, "id", "groupId"))
	change(pl, Update, before, after, unknown)
	serverCheck(pl, send, func(b rules.Doc) *rules.Error {
		return rules.CheckAlertConfig(b, rules.Doc{"id": curID, "groupId": project})
	})
	pl.write = func(ctx context.Context, c *client.Client) (string, error) {
		_, err := c.Send(ctx, http.MethodPut, base+"/"+url.PathEscape(curID), send)
		return fmt.Sprintf("updated %s (id %s)", pl.Label, curID), err
	}
	return pl, nil
}

func hasTag(m map[string]any, tag string) bool {
	tags, _ := m["tags"].([]any)
	for _, t := range tags {
		if t == tag {
			return true
		}
	}
	return false
}

// withNameTag is the tags a named configuration should have: the
// document's (else the server's), its name tag included once.
func withNameTag(tags any, cur map[string]any, name string) []any {
	list, ok := tags.([]any)
	if !ok && cur != nil {
		list, _ = cur["tags"].([]any)
	}
	out := []any{}
	for _, t := range list {
		if s, _ := t.(string); !strings.HasPrefix(s, NameTag) {
			out = append(out, t)
		}
	}
	return append(out, NameTag+name)
}

// globalAlertConfig can only switch enabled (docs/api.md, Alert
// configuration); any other difference is reported by name.
func (p *Planner) globalAlertConfig(ctx context.Context, d *Document) (*Plan, error) {
	id := d.Fields["id"].(string)
	pl := &Plan{Doc: d, Label: "GlobalAlertConfig " + id}
	path := api.GetGlobalAlertConfig.Path(id)
	cur, err := p.get(ctx, path)
	if err != nil {
		return nil, err
	}
	if cur == nil {
		pl.Action = Refused
		pl.Problems = []string{fmt.Sprintf("id %s: no such global alert configuration, and the API cannot create one", id)}
		return pl, nil
	}
	_, before, after, unknown := merge(desired(d, "id"), current(d.Kind, cur, "id"))
	for _, k := range sortedKeys(after) {
		if k != "enabled" && !reflect.DeepEqual(before[k], after[k]) {
			pl.Problems = append(pl.Problems, fmt.Sprintf("field %s differs: a global alert configuration can only be enabled or disabled", k))
		}
	}
	if len(pl.Problems) > 0 {
		pl.Action, pl.Before, pl.After = Refused, before, after
		return pl, nil
	}
	change(pl, Update, before, after, unknown)
	enabled, _ := after["enabled"].(bool)
	pl.write = func(ctx context.Context, c *client.Client) (string, error) {
		_, err := c.Send(ctx, http.MethodPut, path, map[string]any{"enabled": enabled})
		return "updated " + pl.Label, err
	}
	return pl, nil
}

// backupConfig patches the fields that differ; syncSource, which the
// server does not show, is sent along with a change and never compared.
func (p *Planner) backupConfig(ctx context.Context, d *Document) (*Plan, error) {
	project, err := p.project(d, "groupId")
	if err != nil {
		return nil, err
	}
	cluster := d.Fields["clusterId"].(string)
	pl := &Plan{Doc: d, Label: "BackupConfig " + cluster}
	path := api.GetBackupConfig.Path(project, cluster)
	cur, err := p.get(ctx, path)
	if err != nil {
		return nil, err
	}
	if cur == nil {
		pl.Action = Refused
		pl.Problems = []string{fmt.Sprintf("clusterId %s: no backup configuration in project %s, and the API cannot create one", cluster, project)}
		return pl, nil
	}
	want := desired(d, "groupId", "clusterId", "syncSource")
	send, before, after, unknown := merge(want, current(d.Kind, cur, "groupId", "clusterId"))
	change(pl, Update, before, after, unknown)
	patch := map[string]any{}
	for k := range want {
		if !reflect.DeepEqual(before[k], after[k]) {
			patch[k] = send[k]
		}
	}
	_, regions := patch["multiRegionBackupEnabled"]
	_, configs := patch["deploymentConfigs"]
	if regions || configs { // the API takes these two together
		patch["multiRegionBackupEnabled"], patch["deploymentConfigs"] = send["multiRegionBackupEnabled"], send["deploymentConfigs"]
	}
	if s, ok := d.Fields["syncSource"]; ok {
		patch["syncSource"] = s
	}
	serverCheck(pl, patch, func(b rules.Doc) *rules.Error {
		c, _ := numbered(cur)
		return rules.CheckBackupConfigChange(b, c)
	})
	pl.write = func(ctx context.Context, c *client.Client) (string, error) {
		_, err := c.Send(ctx, http.MethodPatch, path, patch)
		return "updated " + pl.Label, err
	}
	return pl, nil
}

// accessList adds the entries the server lacks; it cannot remove any
// (docs/api.md), so an entry the document leaves out refuses it.
func (p *Planner) accessList(ctx context.Context, d *Document) (*Plan, error) {
	org, _ := d.Fields["orgId"].(string)
	if org == "" {
		var err error
		if org, err = p.OrgID(); err != nil {
			return nil, err
		}
	}
	key := d.Fields["apiKeyId"].(string)
	pl := &Plan{Doc: d, Label: "AccessList " + key}
	path := api.ListAccessList.Path(org, key)
	have := map[string]bool{}
	for raw, err := range p.Client.Items(ctx, path, client.ListOptions{All: true, ItemsPerPage: 500}) {
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if json.Unmarshal(raw, &m) == nil {
			if k, err := entryKey(m); err == nil {
				have[k] = true
			}
		}
	}
	want := map[string]bool{}
	var add []map[string]any
	entries, _ := d.Fields["results"].([]any)
	for _, e := range entries {
		m := e.(map[string]any)
		k, _ := entryKey(m)
		if want[k] {
			continue
		}
		want[k] = true
		if !have[k] {
			entry := map[string]any{}
			if ip, ok := m["ipAddress"].(string); ok && m["cidrBlock"] == nil {
				entry["ipAddress"] = ip
			} else {
				entry["cidrBlock"] = m["cidrBlock"]
			}
			add = append(add, entry)
		}
	}
	var before, after []any
	for _, k := range sortedKeys(have) {
		before = append(before, k)
		if !want[k] {
			pl.Problems = append(pl.Problems, fmt.Sprintf("entry %s is on the server and not in the document: the API cannot remove access-list entries", k))
		}
	}
	after = append(after, before...)
	for _, e := range add {
		k, _ := entryKey(e)
		after = append(after, k)
	}
	sort.Slice(after, func(i, j int) bool { return after[i].(string) < after[j].(string) })
	pl.Before, pl.After = map[string]any{"entries": before}, map[string]any{"entries": after}
	switch {
	case len(pl.Problems) > 0:
		pl.Action = Refused
	case len(add) == 0:
		pl.Action = Unchanged
	default:
		pl.Action = Update
	}
	pl.write = func(ctx context.Context, c *client.Client) (string, error) {
		_, err := c.Send(ctx, http.MethodPost, path, add)
		return fmt.Sprintf("updated %s (%d entries added)", pl.Label, len(add)), err
	}
	return pl, nil
}
