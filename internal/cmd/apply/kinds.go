package apply

import (
	"fmt"
	"strings"
	"sync"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// Kind is one kind of document: its fields and how it is identified.
type Kind struct {
	Name   string
	Fields map[string]field
	// check states what identifies a document of the kind.
	check func(*Document) error
}

// NameTag is the tag apply keeps on an alert configuration created from a
// document with a name, so later runs find it again (docs/apply.md).
const NameTag = "omctl:name="

var common = map[string]field{"links": managed(), "created": managed(), "updated": managed()}

func with(base map[string]field, more map[string]field) map[string]field {
	out := map[string]field{}
	for _, m := range []map[string]field{common, base, more} {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// The fields of a document are those the API's request bodies take
// (internal/rules), in apply's terms, so a document is checked against the
// same table the server checks the request with.

func storeFields(kind rules.StoreKind) map[string]field {
	return with(fromRules(rules.StoreBody(kind, rules.Create)), nil)
}

func alertConfigFields(global bool) map[string]field {
	f := fromRules(rules.AlertConfigBody())
	if global {
		return with(f, map[string]field{"id": str(), "forAllGroups": boolean(), "groupIds": strs()})
	}
	// A project's configuration is found again by its name (docs/apply.md).
	return with(f, map[string]field{"id": str(), "groupId": str(), "name": str()})
}

// fromRules describes a schema's attributes as apply's fields: those the
// server manages are accepted and never compared.
func fromRules(s rules.Schema) map[string]field {
	out := make(map[string]field, len(s))
	for name, f := range s {
		out[name] = fieldOf(f)
	}
	return out
}

func fieldOf(f *rules.Field) field {
	if f.Managed() {
		return managed()
	}
	switch f.Kind() {
	case rules.KindString, rules.KindTime:
		return str()
	case rules.KindBool:
		return boolean()
	case rules.KindInt:
		return integer()
	case rules.KindNumber:
		return number()
	case rules.KindObject:
		if f.Attributes() == nil {
			return managed()
		}
		return object(fromRules(f.Attributes()))
	case rules.KindArray:
		switch e := f.Elem(); e.Kind() {
		case rules.KindString:
			return strs()
		case rules.KindObject:
			return objects(fromRules(e.Attributes()))
		}
	}
	return managed()
}

var accessEntryFields = with(map[string]field{"ipAddress": str(), "cidrBlock": str(),
	"count": managed(), "lastUsed": managed(), "lastUsedAddress": managed()}, nil)

// kinds are built when apply first needs them, not at every omctl start
// (docs/performance.md, start-up).
var kinds = sync.OnceValue(func() []*Kind {
	return []*Kind{
		{Name: "OplogStore", Fields: storeFields(rules.OplogStore), check: needString("id", "the store's name")},
		{Name: "SnapshotStore", Fields: storeFields(rules.SnapshotStore), check: needString("id", "the store's name")},
		{Name: "BackupJobsConfig", Fields: with(fromRules(rules.BackupJobConfigBody()), map[string]field{"id": str()}),
			check: optionalID("id", "project")},
		{Name: "AlertConfig", Fields: alertConfigFields(false), check: checkAlertConfig},
		{Name: "GlobalAlertConfig", Fields: alertConfigFields(true), check: func(d *Document) error {
			if err := needString("id", "the configuration's id")(d); err != nil {
				return err
			}
			return cmdutil.CheckID("id", d.Fields["id"].(string))
		}},
		{Name: "BackupConfig", Fields: with(fromRules(rules.BackupConfigBody()), map[string]field{"groupId": str(), "clusterId": str()}),
			check: func(d *Document) error {
				if err := needString("clusterId", "the cluster's id")(d); err != nil {
					return err
				}
				if err := cmdutil.CheckID("clusterId", d.Fields["clusterId"].(string)); err != nil {
					return err
				}
				return optionalID("groupId", "project")(d)
			}},
		{Name: "AccessList", Fields: with(map[string]field{
			"apiKeyId": str(), "orgId": str(),
			"results": objects(accessEntryFields), "totalCount": managed(),
		}, nil), check: checkAccessList},
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
