package store

import (
	"maps"
	"regexp"
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// The records of the store, one type per resource of docs/api.md (alerts
// are AlertDocs, API keys APIKeys). A record holds the members it was
// written with, those the API does not name included (a fixture may carry
// them, and GET returns them), and typed fields for what the server
// reasons about, read once when the record is made (the rules of
// internal/rules check the members themselves). A record never
// changes: an operation puts a new one in its place, so one a handler holds
// always says what it said when found.

// members are a record's members as written; nobody changes them.
type members struct{ m doc }

// Members is a copy of the record's members, for a handler to render.
func (r members) Members() doc { return maps.Clone(r.m) }

// changed copies the members with set applied, for a new record.
func (r members) changed(set func(doc)) doc {
	d := maps.Clone(r.m)
	set(d)
	return d
}

func (r members) raw() doc { return r.m }

// storedRecord is what a list of records and the state file need of one.
type storedRecord interface {
	key() string
	raw() doc
}

// Org is an organization.
type Org struct {
	members
	ID string
}

func newOrg(d doc) *Org {
	o := &Org{members: members{d}}
	o.ID, _ = d["id"].(string)
	return o
}

func (o *Org) key() string { return o.ID }

// Project is a project (a group), within an organization.
type Project struct {
	members
	ID, OrgID string
}

func newProject(d doc) *Project {
	p := &Project{members: members{d}}
	p.ID, _ = d["id"].(string)
	p.OrgID, _ = d["orgId"].(string)
	return p
}

func (p *Project) key() string { return p.ID }

// orgID is the organization of a project, "" for none (or no project).
func (p *Project) orgID() string {
	if p == nil {
		return ""
	}
	return p.OrgID
}

// AlertConfig is an alert configuration of a project, or a global one
// (GroupID ""): what the alert engine raises alerts by.
type AlertConfig struct {
	members
	ID, GroupID, EventTypeName string
	Enabled                    bool
	// A global configuration covers every project, or those of GroupIDs.
	ForAllGroups    bool
	GroupIDs        []string
	Matchers        []Matcher
	MetricThreshold *MetricThreshold // nil when it has none
	Notifications   []*NotificationSpec
}

// Matcher is one condition on an alert's target (docs/server.md, Alert engine).
type Matcher struct {
	Field, Operator, Value string
	re                     *regexp.Regexp // a REGEX matcher's, compiled once
}

// MetricThreshold is what an OUTSIDE_METRIC_THRESHOLD configuration compares
// samples with.
type MetricThreshold struct {
	MetricName, Operator, Units string
	Threshold                   float64
}

// NotificationSpec is one notification of a configuration: whom to tell,
// after how long, and how often again.
type NotificationSpec struct {
	members
	TypeName                  string
	Delay, Interval           time.Duration
	WebhookURL, WebhookSecret string
}

func newAlertConfig(d doc) *AlertConfig {
	c := &AlertConfig{members: members{d}}
	c.ID, _ = d["id"].(string)
	c.GroupID, _ = d["groupId"].(string)
	c.EventTypeName, _ = d["eventTypeName"].(string)
	c.Enabled = d["enabled"] == true
	c.ForAllGroups = d["forAllGroups"] == true
	c.GroupIDs = rules.StringList(d["groupIds"])
	list, _ := d["matchers"].([]any)
	for _, it := range list {
		m, _ := it.(map[string]any)
		var mt Matcher
		if mt.Field, _ = m["fieldName"].(string); mt.Field == "" {
			mt.Field, _ = m["field"].(string)
		}
		mt.Operator, _ = m["operator"].(string)
		mt.Value, _ = m["value"].(string)
		if mt.Operator == "REGEX" {
			// A pattern that does not compile matches nothing (the rules refuse one).
			mt.re, _ = regexp.Compile(`^(?:` + mt.Value + `)$`)
		}
		c.Matchers = append(c.Matchers, mt)
	}
	if t, ok := d["metricThreshold"].(map[string]any); ok {
		mt := &MetricThreshold{Threshold: toFloat(t["threshold"])}
		mt.MetricName, _ = t["metricName"].(string)
		mt.Operator, _ = t["operator"].(string)
		mt.Units, _ = t["units"].(string)
		c.MetricThreshold = mt
	}
	notes, _ := d["notifications"].([]any)
	for _, n := range notes {
		m, _ := n.(map[string]any)
		c.Notifications = append(c.Notifications, newNotificationSpec(m))
	}
	return c
}

func newNotificationSpec(m doc) *NotificationSpec {
	spec := &NotificationSpec{members: members{m}}
	spec.TypeName, _ = m["typeName"].(string)
	delay, _ := rules.NormalizeNumbers(m["delayMin"]).(int64)
	interval, _ := rules.NormalizeNumbers(m["intervalMin"]).(int64)
	spec.Delay, spec.Interval = time.Duration(delay)*time.Minute, time.Duration(interval)*time.Minute
	spec.WebhookURL, _ = m["webhookUrl"].(string)
	spec.WebhookSecret, _ = m["webhookSecret"].(string)
	return spec
}

func (c *AlertConfig) key() string { return c.ID }

// covers reports whether a global configuration applies to a project.
func (c *AlertConfig) covers(project string) bool {
	if c.ForAllGroups {
		return true
	}
	for _, g := range c.GroupIDs {
		if g == project {
			return true
		}
	}
	return false
}

// smallestDelay is how long its alerts track before they open: the
// smallest delay of its notifications (docs/api.md, Alert).
func (c *AlertConfig) smallestDelay() time.Duration {
	smallest := time.Duration(-1)
	for _, n := range c.Notifications {
		if smallest < 0 || n.Delay < smallest {
			smallest = n.Delay
		}
	}
	return max(smallest, 0)
}

// BackupConfig is the backup configuration of a cluster.
type BackupConfig struct {
	members
	GroupID, ClusterID string
}

func newBackupConfig(d doc) *BackupConfig {
	b := &BackupConfig{members: members{d}}
	b.GroupID, _ = d["groupId"].(string)
	b.ClusterID, _ = d["clusterId"].(string)
	return b
}

func (b *BackupConfig) key() string { return joinKey(b.GroupID, b.ClusterID) }

// Snapshot is a snapshot of a cluster, or of a config server (HostID,
// the host of its first part).
type Snapshot struct {
	members
	ID, GroupID, ClusterID, HostID string
}

func newSnapshot(d doc) *Snapshot {
	s := &Snapshot{members: members{d}}
	s.ID, _ = d["id"].(string)
	s.GroupID, _ = d["groupId"].(string)
	s.ClusterID, _ = d["clusterId"].(string)
	s.HostID = snapshotHost(d)
	return s
}

func (s *Snapshot) key() string { return s.ID }

// S3Store is an oplog store or a snapshot store, named by its id.
type S3Store struct {
	members
	ID, AuthMethod string // AuthMethod "" is KEYS, the default
}

func newS3Store(d doc) *S3Store {
	s := &S3Store{members: members{d}}
	s.ID, _ = d["id"].(string)
	s.AuthMethod, _ = d["s3AuthMethod"].(string)
	return s
}

func (s *S3Store) key() string { return s.ID }

// BackupJobConfig is the backup jobs configuration of a project (its ID):
// which stores the project's backups may go to.
type BackupJobConfig struct {
	members
	ID                              string
	OplogStoreIDs, SnapshotStoreIDs []string
}

func newBackupJobConfig(d doc) *BackupJobConfig {
	b := &BackupJobConfig{members: members{d}}
	b.ID, _ = d["id"].(string)
	b.OplogStoreIDs = filterIDs(d["oplogStoreFilter"])
	b.SnapshotStoreIDs = filterIDs(d["snapshotStoreFilter"])
	return b
}

func (b *BackupJobConfig) key() string { return b.ID }

// filterIDs are the store ids a store filter names, one an item ("" for
// an item without one).
func filterIDs(v any) []string {
	items, _ := v.([]any)
	ids := make([]string, len(items))
	for i, it := range items {
		m, _ := it.(map[string]any)
		ids[i], _ = m["id"].(string)
	}
	return ids
}
