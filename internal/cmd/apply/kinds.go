package apply

import (
	"fmt"
	"strings"
	"sync"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// Kind is one kind of document: its fields, checked with the server's own
// schema (internal/rules), its rank in a plan and how it is identified.
type Kind struct {
	Name string
	// Schema is the body the kind's writes send, with the fields that
	// identify a document added, nothing required.
	Schema rules.Schema
	// Rank orders a plan: a kind comes after those it may name (a backup
	// jobs configuration names stores), whatever the order of the files.
	Rank int
	// check states what identifies a document of the kind.
	check func(*Document) error
}

// managed says whether the server manages a top-level field (links,
// created, counters, ids it assigns): accepted in a document, never
// compared nor sent.
func (k *Kind) managed(field string) bool {
	f, ok := k.Schema[field]
	return ok && f.Managed()
}

// NameTag is the tag apply keeps on an alert configuration created from a
// document with a name, so later runs find it again (docs/apply.md).
const NameTag = "omctl:name="

// schema is a body's schema without anything required, the identity
// fields added, and the fields every answer carries accepted.
func schema(body rules.Schema, identity ...string) rules.Schema {
	s := body.Partial()
	for _, k := range []string{"links", "created", "updated"} {
		if _, ok := s[k]; !ok {
			s[k] = rules.Ignored()
		}
	}
	for _, k := range identity {
		s[k] = rules.Str()
	}
	return s
}

func globalAlertConfigSchema() rules.Schema {
	s := schema(rules.AlertConfigBody(), "id")
	s["forAllGroups"], s["groupIds"] = rules.Bool(), rules.Array(rules.Str())
	return s
}

// accessListSchema is a key's access list as GET shows it: entries, each
// an address or a block, with what the server counts.
func accessListSchema() rules.Schema {
	entry := rules.Schema{"ipAddress": rules.Str(), "cidrBlock": rules.Str(), "count": rules.Ignored(),
		"created": rules.Ignored(), "lastUsed": rules.Ignored(), "lastUsedAddress": rules.Ignored(), "links": rules.Ignored()}
	return schema(rules.Schema{"results": rules.Array(rules.Object(entry)), "totalCount": rules.Ignored()}, "apiKeyId", "orgId")
}

// Ranks of the kinds in a plan: what is named before what names it.
const (
	rankStore = iota
	rankBackupJobs
	rankBackupConfig
	rankAlertConfig
	rankAccessList
)

// kinds are built when apply first needs them, not at every omctl start
// (docs/performance.md, start-up).
var kinds = sync.OnceValue(func() []*Kind {
	return []*Kind{
		{Name: "OplogStore", Schema: schema(rules.StoreBody(rules.OplogStore, rules.Create), "id"), Rank: rankStore,
			check: needString("id", "the store's name")},
		{Name: "SnapshotStore", Schema: schema(rules.StoreBody(rules.SnapshotStore, rules.Create), "id"), Rank: rankStore,
			check: needString("id", "the store's name")},
		{Name: "BackupJobsConfig", Schema: schema(rules.BackupJobConfigBody(), "id"), Rank: rankBackupJobs,
			check: optionalID("id", "project")},
		{Name: "AlertConfig", Schema: schema(rules.AlertConfigBody(), "id", "groupId", "name"), Rank: rankAlertConfig,
			check: checkAlertConfig},
		{Name: "GlobalAlertConfig", Schema: globalAlertConfigSchema(), Rank: rankAlertConfig, check: func(d *Document) error {
			if err := needString("id", "the configuration's id")(d); err != nil {
				return err
			}
			return cmdutil.CheckID("id", d.Fields["id"].(string))
		}},
		{Name: "BackupConfig", Schema: schema(rules.BackupConfigBody(), "groupId", "clusterId"), Rank: rankBackupConfig,
			check: func(d *Document) error {
				if err := needString("clusterId", "the cluster's id")(d); err != nil {
					return err
				}
				if err := cmdutil.CheckID("clusterId", d.Fields["clusterId"].(string)); err != nil {
					return err
				}
				return optionalID("groupId", "project")(d)
			}},
		{Name: "AccessList", Schema: accessListSchema(), Rank: rankAccessList, check: checkAccessList},
	}
})

// KindNames lists the kinds apply accepts.
func KindNames() []string {
	names := make([]string, len(kinds()))
	for i, k := range kinds() {
		names[i] = k.Name
	}
	return names
}

// KindByName finds a kind, nil when there is none of that name.
func KindByName(name string) *Kind {
	for _, k := range kinds() {
		if k.Name == name {
			return k
		}
	}
	return nil
}

func needString(name, what string) func(*Document) error {
	return func(d *Document) error {
		if s, _ := d.Fields[name].(string); s == "" {
			return fmt.Errorf("field %s is missing: it names %s", name, what)
		}
		return nil
	}
}

// optionalID checks an id field that defaults to the profile's project.
func optionalID(name, what string) func(*Document) error {
	return func(d *Document) error {
		if s, _ := d.Fields[name].(string); s != "" {
			return cmdutil.CheckID(name, s)
		}
		return nil
	}
}

func checkAlertConfig(d *Document) error {
	if err := optionalID("groupId", "project")(d); err != nil {
		return err
	}
	id, _ := d.Fields["id"].(string)
	name, _ := d.Fields["name"].(string)
	if id == "" && name == "" {
		return fmt.Errorf("field name or id is missing: a configuration is found again by its name (kept in the tag %sNAME) or its id", NameTag)
	}
	if id != "" {
		if err := cmdutil.CheckID("id", id); err != nil {
			return err
		}
	}
	if tags, ok := d.Fields["tags"].([]any); ok {
		for i, t := range tags {
			if s := t.(string); strings.HasPrefix(s, NameTag) && (name == "" || s != NameTag+name) {
				return fmt.Errorf("field tags[%d] %q: tags starting with %s are apply's own; give the field name instead", i, s, NameTag)
			}
		}
	}
	return nil
}

func checkAccessList(d *Document) error {
	if err := needString("apiKeyId", "the API key whose access list this is")(d); err != nil {
		return err
	}
	if err := cmdutil.CheckID("apiKeyId", d.Fields["apiKeyId"].(string)); err != nil {
		return err
	}
	if err := optionalID("orgId", "organization")(d); err != nil {
		return err
	}
	entries, _ := d.Fields["results"].([]any)
	for i, e := range entries {
		if _, err := entryKey(e.(map[string]any)); err != nil {
			return fmt.Errorf("field results[%d]: %w", i, err)
		}
	}
	return nil
}

// entryKey is an access-list entry's address block in canonical form, by
// the API's own rule (rules.AccessListKey), told in a document's words.
func entryKey(m map[string]any) (string, error) {
	k, err := rules.AccessListKey(m)
	switch {
	case err == nil:
		return k, nil
	case err.Code == "MISSING_ONE_OF_ATTRIBUTES":
		return "", fmt.Errorf("an entry needs ipAddress or cidrBlock")
	case m["cidrBlock"] != nil && m["cidrBlock"] != "":
		return "", fmt.Errorf("cidrBlock %q is not a CIDR block such as 10.0.0.0/16", m["cidrBlock"])
	}
	return "", fmt.Errorf("ipAddress %q is not an IP address", m["ipAddress"])
}
