package rules

import (
	"fmt"
	"slices"
	"time"

	"github.com/omctl/omctl/internal/api"
)

// The rules that span fields, as tables checked in order once a body's
// schema has passed (docs/api.md).

// CheckAlertConfig checks the body that creates or replaces an alert
// configuration; current holds the id and project that body may repeat.
func CheckAlertConfig(body, current Doc) *Error {
	if err := AlertConfigBody().Check(body, "", current); err != nil {
		return err
	}
	for _, rule := range alertConfigRules {
		if err := rule(body); err != nil {
			return err
		}
	}
	return nil
}

var alertConfigRules = []func(Doc) *Error{
	// The API publishes no complete list of event types: the shape is
	// what can be checked.
	func(body Doc) *Error {
		if event, _ := body["eventTypeName"].(string); !api.IsEventTypeName(event) {
			return Invalidf("INVALID_ENUM_VALUE", fmt.Sprintf("An invalid enumeration value %s was specified for eventTypeName.", event), event, "eventTypeName")
		}
		return nil
	},
	CheckMatchers,
	// An OUTSIDE_METRIC_THRESHOLD configuration says which metric.
	func(body Doc) *Error {
		if body["eventTypeName"] == api.EventOutsideMetricThreshold && body["metricThreshold"] == nil {
			return Missing("metricThreshold")
		}
		return nil
	},
	// A webhook secret signs deliveries to a URL, so it comes with one.
	func(body Doc) *Error {
		notes, _ := body["notifications"].([]any)
		for i, n := range notes {
			m, _ := n.(map[string]any)
			if _, hasSecret := m["webhookSecret"]; hasSecret {
				if u, _ := m["webhookUrl"].(string); u == "" {
					return Invalidf("MISSING_ATTRIBUTE",
						fmt.Sprintf("The required attribute notifications[%d].webhookUrl was not specified: a webhook secret needs a webhook URL in the same request.", i),
						fmt.Sprintf("notifications[%d].webhookUrl", i))
				}
			}
		}
		return nil
	},
}

// KeepRedactedSecrets puts back, in the notifications of a replacement,
// the stored secrets a client sent back in the redacted form it was shown
// (a read, edit, write cycle): such a value means "unchanged".
func KeepRedactedSecrets(body, current Doc) {
	notes, _ := body["notifications"].([]any)
	oldNotes, _ := current["notifications"].([]any)
	for i, n := range notes {
		m, _ := n.(map[string]any)
		if i >= len(oldNotes) {
			return
		}
		old, _ := oldNotes[i].(map[string]any)
		if old == nil || old["typeName"] != m["typeName"] {
			continue
		}
		for k, v := range m {
			if s, ok := v.(string); ok {
				if prev, ok := old[k].(string); ok && prev != s && redactField(k, prev) == s {
					m[k] = prev
				}
			}
		}
	}
}

// CheckBackupConfigChange checks a PATCH of a backup configuration, which
// current is: its schema, then the rules across its fields.
func CheckBackupConfigChange(body, current Doc) *Error {
	if err := BackupConfigBody().Check(body, "", current); err != nil {
		return err
	}
	c := backupConfigChange{body: body, current: current}
	for _, rule := range backupConfigRules {
		if err := rule(c); err != nil {
			return err
		}
	}
	if source, _ := body["syncSource"].(string); source != "" {
		return nil
	}
	for _, r := range resyncRules {
		if what := r(c); what != "" {
			return Invalidf("SYNC_SOURCE_REQUIRED",
				fmt.Sprintf("A full resync is needed for %s: the request must set syncSource.", what), "syncSource")
		}
	}
	return nil
}

// backupConfigChange is a PATCH body beside the configuration it changes.
type backupConfigChange struct{ body, current Doc }

// namespaces are the excluded and included namespaces once the change is
// made.
func (c backupConfigChange) namespaces() (excluded, included []string) {
	excluded, included = StringList(c.current["excludedNamespaces"]), StringList(c.current["includedNamespaces"])
	if v, ok := c.body["excludedNamespaces"]; ok {
		excluded = StringList(v)
	}
	if v, ok := c.body["includedNamespaces"]; ok {
		included = StringList(v)
	}
	return excluded, included
}

var backupConfigRules = []func(backupConfigChange) *Error{
	// Regions are assigned with the deployments they go to, and a body
	// changes something.
	func(c backupConfigChange) *Error {
		_, regions := c.body["multiRegionBackupEnabled"]
		_, configs := c.body["deploymentConfigs"]
		if len(c.body) == 0 || regions != configs {
			if !regions {
				return Missing("multiRegionBackupEnabled")
			}
			return Missing("deploymentConfigs")
		}
		return nil
	},
	func(c backupConfigChange) *Error {
		return NamespacesExclusive(c.namespaces())
	},
}

// resyncRules name the changes that need a full resync, and so syncSource;
// "" when the change makes none.
var resyncRules = []func(backupConfigChange) string{
	func(c backupConfigChange) string {
		excluded, _ := c.namespaces()
		if removed := missingFrom(StringList(c.current["excludedNamespaces"]), excluded); len(removed) > 0 {
			return fmt.Sprintf("removing %v from excludedNamespaces", removed)
		}
		return ""
	},
	func(c backupConfigChange) string {
		_, included := c.namespaces()
		if added := missingFrom(included, StringList(c.current["includedNamespaces"])); len(added) > 0 {
			return fmt.Sprintf("adding %v to includedNamespaces", added)
		}
		return ""
	},
	func(c backupConfigChange) string {
		if c.body["encryptionEnabled"] == true && c.current["encryptionEnabled"] != true {
			return "enabling encryption"
		}
		return ""
	},
}

// NamespacesExclusive refuses a configuration with both excluded and
// included namespaces.
func NamespacesExclusive(excluded, included []string) *Error {
	if len(excluded) > 0 && len(included) > 0 {
		return Invalidf("INVALID_ATTRIBUTE", "excludedNamespaces and includedNamespaces are mutually exclusive: send one, and the other as an empty list.",
			"excludedNamespaces", "includedNamespaces")
	}
	return nil
}

// missingFrom lists the items of a that b lacks.
func missingFrom(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// CheckAcknowledgement checks the body of PATCH on an alert, current: an
// acknowledgement runs until a time later than now (an acknowledgement
// is ended with acknowledgedUntil null, not with a past time).
func CheckAcknowledgement(body, current Doc, now time.Time) *Error {
	if err := acknowledgeBody(body, current).Check(body, "", current); err != nil {
		return err
	}
	if until, ok := body["acknowledgedUntil"].(string); ok {
		if t, _ := ParseTimestamp(until); !t.After(now) {
			return Invalidf("INVALID_JSON_ATTRIBUTE",
				fmt.Sprintf("acknowledgedUntil %s is not later than the server's time %s; to end an acknowledgement, send acknowledgedUntil null.", until, FormatTime(now)),
				"acknowledgedUntil")
		}
	}
	return nil
}

// CheckSnapshotExpiry checks the body of PATCH on a snapshot, current: it
// changes doNotDelete or expires, and an expiry already past is final.
func CheckSnapshotExpiry(body, current Doc, now time.Time) *Error {
	if err := snapshotExpiryBody(body, current).Check(body, "", current); err != nil {
		return err
	}
	_, hasDND := body["doNotDelete"].(bool)
	_, hasExpires := body["expires"].(string)
	if !hasDND && !hasExpires {
		return Invalidf("MISSING_ONE_OF_ATTRIBUTES", "At least one of the attributes doNotDelete or expires must be specified.", "doNotDelete", "expires")
	}
	if cur, ok := current["expires"].(string); ok && hasExpires {
		if t, err := ParseTimestamp(cur); err == nil && t.Before(now) {
			return Invalidf("SNAPSHOT_EXPIRY_IN_PAST",
				fmt.Sprintf("The expiry of snapshot %s passed at %s and can no longer be edited.", current["id"], cur), current["id"], cur)
		}
	}
	return nil
}

// CheckPathIDs checks the ids a body repeats of the resource its path
// names (ids: member name to the resource's value): each may be left
// out or sent as it is, and is then taken out of the body; another value
// is refused, as the members are read-only.
func CheckPathIDs(body Doc, ids map[string]string) *Error {
	for k, want := range ids {
		if v, ok := body[k]; ok {
			if s, isStr := v.(string); !isStr || s != want {
				return Invalidf("ATTRIBUTE_READ_ONLY", fmt.Sprintf("Attribute %s is read-only and cannot be changed.", k), k)
			}
			delete(body, k)
		}
	}
	return nil
}
