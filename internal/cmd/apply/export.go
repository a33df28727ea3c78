package apply

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/secretref"
)

// ExportOptions are the inputs of `export`.
type ExportOptions struct {
	cmdutil.Deps

	// Kinds are KIND or KIND/ID arguments.
	Kinds []string
	// SecretRefs writes each secret as a reference to an environment
	// variable (secretVariable) instead of its redacted form.
	SecretRefs bool
}

// NewCmdExport builds `export`.
func NewCmdExport(f *cmdutil.Factory, runF func(context.Context, *ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "export KIND[/ID]...",
		Short: "Write resources as the documents apply takes",
		Long: `Write resources of the server as YAML documents that apply accepts, so a team
can keep them in git: export, edit, diff, apply.

AlertConfig exports every alert configuration of the project (--project or the
profile's), GlobalAlertConfig every global one, BackupJobsConfig the project's
backup jobs configuration, OplogStore and SnapshotStore every store of their
kind, BackupConfig every backup configuration of the project. One of them is
named as AlertConfig/ID, GlobalAlertConfig/ID, OplogStore/ID, SnapshotStore/ID
or BackupConfig/CLUSTER_ID. An access list is always named:
AccessList/API_KEY_ID (of --org or the profile's organization).

Fields the server manages are left out. An alert configuration carrying the
tag omctl:name=NAME is written with that name and no id, so the file applies to
any project; others keep their id. Secrets stay as the server shows them
(redacted); store keys are written masked. apply keeps what the server has
for a redacted secret only while nothing else of the resource changes.

--secret-refs writes each secret as ${env:NAME} instead, and lists the
variables on stderr: set them (from the CI's secret store) and the file can
be edited and applied whole. NAME is the kind, what identifies the resource
(an alert configuration's name, else its id; a store's id; a cluster's id)
and the field's path, upper-cased, each run of other characters than letters
and digits made one _: notifications[0].webhookSecret of the configuration
named hosts-down is ALERTCONFIG_HOSTS_DOWN_NOTIFICATIONS_0_WEBHOOKSECRET.`,
		Example: `  omctl export AlertConfig > alerts.yaml
  omctl export AlertConfig --secret-refs > alerts.yaml
  omctl export OplogStore SnapshotStore BackupJobsConfig > storage.yaml
  omctl export OplogStore/oplog-us-east-1 BackupConfig > backup.yaml
  omctl export AlertConfig/5f2a0c2e8f9d4b0000000001 --secret-refs > hosts-down.yaml
  omctl diff -f storage.yaml --exit-code`,
		Args: cobra.MinimumNArgs(1),
		ValidArgsFunction: func(_ *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return KindNames(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Kinds = args
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return exportRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.SecretRefs, "secret-refs", false, "write secrets as ${env:NAME} references, their variables listed on stderr")
	return cmd
}

type exported struct {
	kind   string
	fields map[string]any
}

func exportRun(ctx context.Context, opts *ExportOptions) error {
	type target struct{ kind, id string }
	var targets []target
	for _, a := range opts.Kinds {
		kind, id, _ := strings.Cut(a, "/")
		if KindByName(kind) == nil {
			return cmdutil.FlagErrorf("unknown kind %q: valid kinds are %s", kind, strings.Join(KindNames(), ", "))
		}
		needsID := kind == "AccessList"
		if needsID && id == "" {
			return cmdutil.FlagErrorf("%s has no list to export: name one, as %s/ID", kind, kind)
		}
		if kind == "BackupJobsConfig" && id != "" {
			return cmdutil.FlagErrorf("%s/%s: BackupJobsConfig is the project's (--project), without an ID", kind, id)
		}
		// Ids of 24 hexadecimal digits; a store's is its name.
		if id != "" && kind != "OplogStore" && kind != "SnapshotStore" {
			if err := cmdutil.CheckID(kind, id); err != nil {
				return err
			}
		}
		targets = append(targets, target{kind, id})
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	var docs []exported
	for _, t := range targets {
		got, err := opts.export(ctx, c, t.kind, t.id)
		if err != nil {
			return err
		}
		docs = append(docs, got...)
	}
	if opts.SecretRefs {
		vars := secretRefs(docs)
		if len(vars) > 0 {
			fmt.Fprintf(opts.IO.ErrOut, "The documents give their secrets by reference; set these variables before apply:\n  %s\n", strings.Join(vars, "\n  "))
		}
	}
	return writeDocuments(opts.IO.Out, docs)
}

// secretRefs replaces, in place, every secret of the documents that has
// a value with a reference to the variable secretVariable names, and
// lists the variables with what each is, in document order.
func secretRefs(docs []exported) []string {
	var vars []string
	used := map[string]bool{}
	for _, d := range docs {
		prefix := d.kind + "_" + identity(d)
		for _, path := range rules.SecretPaths(d.fields, func(s string) bool { return s != "" }) {
			name := secretVariable(prefix, path)
			for n := 2; used[name]; n++ {
				name = secretVariable(prefix, path) + "_" + strconv.Itoa(n)
			}
			used[name] = true
			setAt(d.fields, path, secretref.Env(name).String())
			vars = append(vars, fmt.Sprintf("%s  (%s %s %s)", name, d.kind, identity(d), path))
		}
	}
	return vars
}

// identity is what names an exported resource.
func identity(d exported) string {
	for _, k := range []string{"name", "id", "clusterId", "apiKeyId"} {
		if s, _ := d.fields[k].(string); s != "" {
			return s
		}
	}
	return ""
}

var notAlnum = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9]+`) })

// secretVariable is the environment variable of a secret: the resource's
// prefix and the field's path, upper-cased, each run of other characters
// than letters and digits one _ (docs/apply.md, Secrets).
func secretVariable(prefix, path string) string {
	return strings.ToUpper(strings.Trim(notAlnum().ReplaceAllString(prefix+"_"+path, "_"), "_"))
}

// setAt sets the string at path in v.
func setAt(v any, path, value string) {
	steps := pathStep().FindAllString(path, -1)
	for i, step := range steps {
		last := i == len(steps)-1
		if strings.HasPrefix(step, "[") {
			n, _ := strconv.Atoi(strings.Trim(step, "[]"))
			l, _ := v.([]any)
			if n >= len(l) {
				return
			}
			if last {
				l[n] = value
				return
			}
			v = l[n]
			continue
		}
		m, _ := v.(map[string]any)
		if m == nil {
			return
		}
		if last {
			m[step] = value
			return
		}
		v = m[step]
	}
}

func (opts *ExportOptions) export(ctx context.Context, c *client.Client, kind, id string) ([]exported, error) {
	k := KindByName(kind)
	one := func(path string, drop ...string) ([]exported, error) {
		body, err := c.Get(ctx, path, nil)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(c.Content(body), &m); err != nil {
			return nil, fmt.Errorf("GET %s: the server's answer is not a JSON object", path)
		}
		return []exported{{kind, strip(k, m, drop...)}}, nil
	}
	list := func(path string, query ...string) ([]map[string]any, error) {
		var out []map[string]any
		q := url.Values{}
		for i := 0; i+1 < len(query); i += 2 {
			q.Set(query[i], query[i+1])
		}
		for raw, err := range c.Items(ctx, path, client.ListOptions{All: true, ItemsPerPage: 500, Query: q}) {
			if err != nil {
				return nil, err
			}
			var m map[string]any
			if json.Unmarshal(raw, &m) == nil {
				out = append(out, m)
			}
		}
		return out, nil
	}
	every := func(path string, drop []string, query ...string) ([]exported, error) {
		items, err := list(path, query...)
		if err != nil {
			return nil, err
		}
		var out []exported
		for _, m := range items {
			out = append(out, exported{kind, strip(k, m, drop...)})
		}
		return out, nil
	}
	switch kind {
	case "OplogStore":
		if id == "" {
			// Every store, those closed to new assignments included.
			return every(api.ListOplogStores.Path(), nil, "assignableOnly", "false")
		}
		return one(api.GetOplogStore.Path(id))
	case "SnapshotStore":
		if id == "" {
			return every(api.ListSnapshotStores.Path(), nil, "assignableOnly", "false")
		}
		return one(api.GetSnapshotStore.Path(id))
	case "BackupJobsConfig":
		project, err := opts.ProjectID()
		if err != nil {
			return nil, err
		}
		return one(api.GetBackupJobConfig.Path(project), "id")
	case "BackupConfig":
		project, err := opts.ProjectID()
		if err != nil {
			return nil, err
		}
		if id == "" {
			return every(api.ListBackupConfigs.Path(project), []string{"groupId"})
		}
		return one(api.GetBackupConfig.Path(project, id), "groupId")
	case "GlobalAlertConfig":
		if id != "" {
			return one(api.GetGlobalAlertConfig.Path(id))
		}
		items, err := list(api.ListGlobalAlertConfigs.Path())
		if err != nil {
			return nil, err
		}
		var out []exported
		for _, m := range items {
			out = append(out, exported{kind, strip(k, m)})
		}
		return out, nil
	case "AlertConfig":
		project, err := opts.ProjectID()
		if err != nil {
			return nil, err
		}
		if id != "" {
			got, err := one(api.GetAlertConfig.Path(project, id), "groupId")
			for i := range got {
				got[i].fields = namedConfig(got[i].fields)
			}
			return got, err
		}
		items, err := list(api.ListAlertConfigs.Path(project))
		if err != nil {
			return nil, err
		}
		var out []exported
		for _, m := range items {
			out = append(out, exported{kind, namedConfig(strip(k, m, "groupId"))})
		}
		return out, nil
	case "AccessList":
		org, err := opts.OrgID()
		if err != nil {
			return nil, err
		}
		items, err := list(api.ListAccessList.Path(org, id))
		if err != nil {
			return nil, err
		}
		entries := []any{}
		for _, m := range items {
			if ip, ok := m["ipAddress"].(string); ok && ip != "" {
				entries = append(entries, map[string]any{"ipAddress": ip})
			} else {
				entries = append(entries, map[string]any{"cidrBlock": m["cidrBlock"]})
			}
		}
		return []exported{{kind, map[string]any{"apiKeyId": id, "results": entries}}}, nil
	}
	return nil, cmdutil.FlagErrorf("unknown kind %q", kind)
}

// strip leaves out what the server manages and masks store keys.
func strip(k *Kind, m map[string]any, drop ...string) map[string]any {
	out := current(k, m, drop...)
	for key, v := range out {
		if s, ok := v.(string); ok && secretFields[key] && !looksRedacted(s) && s != "" {
			out[key] = cmdutil.Mask(key, s)
		}
	}
	return out
}

// namedConfig turns the name tag into the name field, which then
// identifies the configuration in place of its id.
func namedConfig(m map[string]any) map[string]any {
	tags, _ := m["tags"].([]any)
	var rest []any
	for _, t := range tags {
		if s, _ := t.(string); strings.HasPrefix(s, NameTag) {
			m["name"] = strings.TrimPrefix(s, NameTag)
		} else {
			rest = append(rest, t)
		}
	}
	if _, named := m["name"]; named {
		delete(m, "id")
		if len(rest) == 0 {
			delete(m, "tags")
		} else {
			m["tags"] = rest
		}
	}
	return m
}

// writeDocuments writes YAML documents, kind and then what identifies
// the resource first.
func writeDocuments(w io.Writer, docs []exported) error {
	var buf bytes.Buffer
	for i, d := range docs {
		var n yaml.Node
		if err := n.Encode(d.fields); err != nil {
			return err
		}
		head := []*yaml.Node{scalar("kind"), scalar(d.kind)}
		var rest []*yaml.Node
		for j := 0; j+1 < len(n.Content); j += 2 {
			switch n.Content[j].Value {
			case "name", "id", "clusterId", "apiKeyId":
				head = append(head, n.Content[j], n.Content[j+1])
			default:
				rest = append(rest, n.Content[j], n.Content[j+1])
			}
		}
		n.Content = append(head, rest...)
		if i > 0 {
			buf.WriteString("---\n")
		}
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(&n); err != nil {
			return err
		}
		if err := enc.Close(); err != nil {
			return err
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func scalar(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}
