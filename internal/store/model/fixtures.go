package model

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/statelog"
)

// Fixtures is the data a server starts from (server.md "Fixture file"):
// every resource as the API would return it, kept as JSON documents.
type Fixtures struct {
	Orgs                  []doc        `json:"orgs,omitempty"`
	Projects              []doc        `json:"projects,omitempty"`
	Clusters              []doc        `json:"clusters,omitempty"`
	APIKeys               []doc        `json:"apiKeys,omitempty"`
	Users                 []doc        `json:"users,omitempty"`
	Alerts                []*alert.Doc `json:"alerts,omitempty"`
	AlertConfigs          []doc        `json:"alertConfigs,omitempty"`
	GlobalAlerts          []*alert.Doc `json:"globalAlerts,omitempty"`
	GlobalAlertConfigs    []doc        `json:"globalAlertConfigs,omitempty"`
	BackupConfigs         []doc        `json:"backupConfigs,omitempty"`
	Snapshots             []doc        `json:"snapshots,omitempty"`
	ConfigServerSnapshots []doc        `json:"configServerSnapshots,omitempty"`
	OplogStores           []doc        `json:"oplogStores,omitempty"`
	SnapshotStores        []doc        `json:"snapshotStores,omitempty"`
	BackupJobConfigs      []doc        `json:"backupJobConfigs,omitempty"`

	// Schedules are the notification schedules of alerts the engine
	// raised, by alert id: a state file has them, a fixture file never.
	Schedules map[string]*ScheduleRecord `json:"-"`
}

var fixtureKeys = []string{"orgs", "projects", "clusters", "apiKeys", "users", "alerts", "alertConfigs", "globalAlerts",
	"globalAlertConfigs", "backupConfigs", "snapshots", "configServerSnapshots", "oplogStores", "snapshotStores", "backupJobConfigs"}

// LoadFixtures reads and validates a fixture file.
func LoadFixtures(path string) (*Fixtures, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("fixture file %s: %s", path, statelog.PlainError(err))
	}
	defer file.Close()
	again := func() (io.ReadCloser, error) { return os.Open(path) }
	return checkedFixtures(path)(readFixtures(path, file, again))
}

// ParseFixtures decodes and validates fixture data; name is used in messages.
func ParseFixtures(name string, data []byte) (*Fixtures, error) {
	return checkedFixtures(name)(parseFixtureData(name, data))
}

// ParseStateData reads fixture data as a state file's records are read:
// without the checks that only a fixture file gets (the engine's rules).
func ParseStateData(name string, data []byte) (*Fixtures, error) {
	return parseFixtureData(name, data)
}

// parseFixtureData decodes fixture data and checks it as a state file's
// data is checked: by the rules of the API, not yet by the engine's.
func parseFixtureData(name string, data []byte) (*Fixtures, error) {
	again := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	return readFixtures(name, bytes.NewReader(data), again)
}

// readFixtures reads fixture data, r, on the fast path (splitFixtures);
// data it does not take is read again from the start with the decoder,
// which says what is wrong (decodeFixtures). Then it checks the rules of
// the API.
func readFixtures(name string, r io.ReadSeeker, again func() (io.ReadCloser, error)) (*Fixtures, error) {
	f, ok := splitFixtures(r, readBlockSize)
	if !ok {
		if _, err := r.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("%s: %s", name, statelog.PlainError(err))
		}
		var err error
		if f, err = decodeFixtures(name, bufio.NewReaderSize(r, 1<<20), again); err != nil {
			return nil, err
		}
	}
	if err := f.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// checkedFixtures checks fixtures read from a file (name) against the
// engine's rules, which a fixture file must keep (docs/server.md, Alert
// engine); a state file's data is not refused for them: an older
// version may have written what breaks them, and the engine copes.
func checkedFixtures(name string) func(*Fixtures, error) (*Fixtures, error) {
	return func(f *Fixtures, err error) (*Fixtures, error) {
		if err != nil {
			return nil, err
		}
		if err := f.CheckEngineRules(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return f, nil
	}
}

// CheckEngineRules checks what the alert engine requires of fixtures
// beyond the API's rules: at most one active alert (OPEN or TRACKING)
// of one configuration and one target identity, the alerts' own fields
// telling the identity as the engine's rule does. The error names the
// fixture key and index of the second alert, and both alert ids.
func (f *Fixtures) CheckEngineRules() error {
	first := map[alert.Pair]string{}
	for _, list := range []struct {
		key    string
		alerts []*alert.Doc
	}{{"alerts", f.Alerts}, {"globalAlerts", f.GlobalAlerts}} {
		for i, a := range list.alerts {
			k, active := alert.PairOf(a)
			if !active {
				continue
			}
			if other, seen := first[k]; seen {
				return failFixture(list.key, i, "alerts %s and %s are both active (OPEN or TRACKING) for configuration %s and %s: "+
					"at most one active alert may exist per configuration and target; close or cancel the older one, or leave it out",
					other, a.ID, k.Config, k.Target.Describe())
			}
			first[k] = a.ID
		}
	}
	return nil
}

// decodeFixtures decodes a fixture file as a stream, so that a file of a
// million alerts is never held whole; alerts are parsed by as many
// workers as there are processors. It is the reference the fast path
// (splitFixtures) agrees with, and it locates every mistake.
func decodeFixtures(name string, r io.Reader, again func() (io.ReadCloser, error)) (*Fixtures, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	// A JSON mistake is told by line and column; a wrong shape by what the
	// file should be.
	var start int64 // where the decoder stood before its last call
	malformed := func(errs ...error) error {
		var err error
		if len(errs) > 0 {
			err = errs[0]
		}
		if err != nil {
			return fmt.Errorf("%s, %s", name, jsonError(again, start, err))
		}
		return fmt.Errorf("%s: not a JSON object of arrays (%s)", name, strings.Join(fixtureKeys, ", "))
	}
	token := func() (json.Token, error) {
		start = dec.InputOffset()
		return dec.Token()
	}
	if tok, err := token(); err != nil || tok != json.Delim('{') {
		return nil, malformed(err)
	}
	f := &Fixtures{}
	lists := f.lists()
	alertLists := map[string]*[]*alert.Doc{"alerts": &f.Alerts, "globalAlerts": &f.GlobalAlerts}
	for dec.More() {
		tok, err := token()
		if err != nil {
			return nil, malformed(err)
		}
		k, _ := tok.(string)
		dst, isDoc := lists[k]
		alertDst, isAlert := alertLists[k]
		if !isDoc && !isAlert {
			return nil, fmt.Errorf("%s: unknown key %q: known keys are %s", name, k, strings.Join(fixtureKeys, ", "))
		}
		if tok, err := token(); err != nil || tok != json.Delim('[') {
			return nil, fmt.Errorf("%s: %s: must be an array of objects", name, k)
		}
		if isAlert {
			alerts, err := readAlerts(dec)
			var decErr *decodeError
			if errors.As(err, &decErr) {
				start = decErr.start
				return nil, malformed(decErr.err)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %s%v", name, k, err)
			}
			*alertDst = append(*alertDst, alerts...)
		} else {
			for i := 0; dec.More(); i++ {
				var v any
				start = dec.InputOffset()
				if err := dec.Decode(&v); err != nil {
					return nil, malformed(err)
				}
				m, ok := v.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("%s: %s[%d]: must be an object", name, k, i)
				}
				*dst = append(*dst, m)
			}
		}
		if _, err := token(); err != nil {
			return nil, malformed(err)
		}
	}
	if _, err := token(); err != nil {
		return nil, malformed(err)
	}
	if _, err := token(); err != io.EOF {
		return nil, fmt.Errorf("%s: unexpected data after the fixture object", name)
	}
	return f, nil
}

// readAlerts parses the items of an array of alerts.
func readAlerts(dec *json.Decoder) ([]*alert.Doc, error) {
	p := alert.NewParser()
	for dec.More() {
		var raw json.RawMessage
		start := dec.InputOffset()
		if err := dec.Decode(&raw); err != nil {
			p.Finish()
			return nil, &decodeError{err, start}
		}
		p.Add(raw)
	}
	return p.Finish()
}

// decodeError is JSON that does not decode, which the caller locates.
type decodeError struct {
	err   error
	start int64
}

func (e *decodeError) Error() string { return ": not valid JSON" }

// lists names the fixture keys whose items are kept as documents (alerts
// are kept as AlertDocs).
func (f *Fixtures) lists() map[string]*[]doc {
	return map[string]*[]doc{"orgs": &f.Orgs, "projects": &f.Projects, "clusters": &f.Clusters, "apiKeys": &f.APIKeys, "users": &f.Users,
		"alertConfigs": &f.AlertConfigs, "globalAlertConfigs": &f.GlobalAlertConfigs, "backupConfigs": &f.BackupConfigs,
		"snapshots": &f.Snapshots, "configServerSnapshots": &f.ConfigServerSnapshots, "oplogStores": &f.OplogStores,
		"snapshotStores": &f.SnapshotStores, "backupJobConfigs": &f.BackupJobConfigs}
}

// Clone deep-copies the fixtures, so a running server never changes them
// and reset can go back to them.
func (f *Fixtures) Clone() *Fixtures {
	c := &Fixtures{}
	src, dst := f.lists(), c.lists()
	for k, items := range src {
		for _, d := range *items {
			*dst[k] = append(*dst[k], rules.CopyJSON(d).(doc))
		}
	}
	// Alerts and schedules never change once made, so they are shared.
	c.Schedules = f.Schedules
	c.Alerts = append([]*alert.Doc(nil), f.Alerts...)
	c.GlobalAlerts = append([]*alert.Doc(nil), f.GlobalAlerts...)
	return c
}

type fixtureError struct {
	key   string
	index int
	rule  string
}

func (e *fixtureError) Error() string { return fmt.Sprintf("%s[%d]: %s", e.key, e.index, e.rule) }

// fixtureCheck is what checking the fixtures has learnt so far: the
// resources that later ones refer to.
type fixtureCheck struct {
	orgs, projects map[string]bool
	projectOrg     map[string]string // by project
	credentials    map[string]string // who uses each public key and user name
}

// fixtureValidators check the fixtures resource by resource, each after
// those it refers to; each lives in its resource's file.
var fixtureValidators = []func(*Fixtures, *fixtureCheck) error{
	validateOrgs, validateProjects, validateAPIKeys, validateUsers, validateAlerts, validateAlertConfigs,
	validateBackupConfigs, validateSnapshots, validateClusters, validateS3Stores, validateBackupJobConfigs,
}

// validate checks every rule of the API that a fixture can break.
func (f *Fixtures) validate() error {
	c := &fixtureCheck{orgs: map[string]bool{}, projects: map[string]bool{}, projectOrg: map[string]string{}, credentials: map[string]string{}}
	for _, v := range fixtureValidators {
		if err := v(f, c); err != nil {
			return err
		}
	}
	return nil
}

// failFixture reports item i of the fixture key breaking a rule.
func failFixture(key string, i int, format string, a ...any) error {
	return &fixtureError{key, i, fmt.Sprintf(format, a...)}
}

// needID reads an id that must be an ObjectId.
func needID(key string, i int, d doc, field string) (string, error) {
	id, _ := d[field].(string)
	if !api.IsObjectID(id) {
		return "", failFixture(key, i, "%s %v must be 24 hexadecimal digits", field, d[field])
	}
	return id, nil
}

// needProject checks that an item's groupId names a project of the fixtures.
func (c *fixtureCheck) needProject(key string, i int, d doc) error {
	id, err := needID(key, i, d, "groupId")
	if err != nil {
		return err
	}
	if !c.projects[id] {
		return failFixture(key, i, "groupId %s is not a project of the fixtures (projects)", id)
	}
	return nil
}

// uniqueID checks the form of each item's id and that no id repeats.
func uniqueID(key string) func(int, doc) (string, error) {
	seen := map[string]bool{}
	return func(i int, d doc) (string, error) {
		id, err := needID(key, i, d, "id")
		if err != nil {
			return "", err
		}
		if seen[id] {
			return "", failFixture(key, i, "id %s appears twice", id)
		}
		seen[id] = true
		return id, nil
	}
}

// checkFixture checks an item against the rules of its resource.
func checkFixture(key string, i int, s rules.Schema, d doc) error {
	if err := s.CheckFixture(d, ""); err != nil {
		return failFixture(key, i, "%s", err.Rule())
	}
	return nil
}
