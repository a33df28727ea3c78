package model

import (
	"testing"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/demo"
)

// requestCase is a request operation given a body it must refuse, the
// rule it names, whether the record is as it was, and a good body.
type requestCase struct {
	name     string
	refused  func() error
	wantCode string
	same     func() bool
	accepted func() error
}

func requestCases(st *State) []requestCase {
	alerts, _ := st.ProjectAlerts(demo.ProjectID).Page(alert.Filter{Status: api.StatusOpen}, 0, 1)
	alert := alerts[0]
	config := st.AlertConfigs(demo.ProjectID).All()[0]
	var backup *BackupConfig
	for _, c := range st.backupConfigs {
		backup = c
		break
	}
	oplog := st.OplogStores().All()[0]
	snapStore := st.SnapshotStores().All()[0]
	configs, keys := st.AlertConfigs(demo.ProjectID).Len(), len(st.apiKeys)
	return []requestCase{{
		name:     "acknowledge",
		refused:  func() error { return st.Acknowledge(alert, doc{"acknowledgedUntil": "yesterday"}, "me", start) },
		wantCode: "INVALID_JSON_ATTRIBUTE",
		same:     func() bool { return st.Alert(alert.Cur.ID).Cur == alert.Cur },
		accepted: func() error {
			return st.Acknowledge(alert, doc{"acknowledgedUntil": "2026-01-02T00:00:00Z", "groupId": demo.ProjectID}, "me", start)
		},
	}, {
		name:     "acknowledge with another id",
		refused:  func() error { return st.Acknowledge(alert, doc{"id": "5f1a0c2e8f9d4b0000000000"}, "me", start) },
		wantCode: "ATTRIBUTE_READ_ONLY",
		same:     func() bool { return st.Alert(alert.Cur.ID).Cur == alert.Cur },
	}, {
		name:     "replace a configuration",
		refused:  func() error { _, err := st.PutAlertConfig(config, doc{"enabled": true}, start); return err },
		wantCode: "MISSING_ATTRIBUTE",
		same:     func() bool { return st.AlertConfigs(demo.ProjectID).Get(config.ID) == config },
		accepted: func() error {
			_, err := st.PutAlertConfig(config, doc{"eventTypeName": "HOST_DOWN", "enabled": true, "notifications": []any{}}, start)
			return err
		},
	}, {
		name: "add a configuration",
		refused: func() error {
			_, err := st.PostAlertConfig(demo.ProjectID, doc{"id": "x", "eventTypeName": "HOST_DOWN"}, start)
			return err
		},
		wantCode: "",
		same:     func() bool { return st.AlertConfigs(demo.ProjectID).Len() == configs },
	}, {
		name: "change a backup configuration",
		refused: func() error {
			_, err := st.PatchBackupConfig(backup, doc{"clusterId": "5f1a0c2e8f9d4b0000000000"})
			return err
		},
		wantCode: "ATTRIBUTE_READ_ONLY",
		same:     func() bool { return st.BackupConfig(backup.GroupID, backup.ClusterID) == backup },
		accepted: func() error { _, err := st.PatchBackupConfig(backup, doc{"statusName": "STARTED"}); return err },
	}, {
		name:     "replace an oplog store",
		refused:  func() error { _, err := st.PutOplogStore(oplog.ID, doc{"id": "another"}); return err },
		wantCode: "",
		same:     func() bool { return st.OplogStores().Get(oplog.ID) == oplog },
	}, {
		name:     "replace a snapshot store",
		refused:  func() error { _, err := st.PutSnapshotStore(snapStore.ID, doc{"id": "another"}); return err },
		wantCode: "",
		same:     func() bool { return st.SnapshotStores().Get(snapStore.ID) == snapStore },
	}, {
		name:     "make an API key",
		refused:  func() error { _, err := st.PostAPIKey(demo.ProjectID, doc{"desc": "no roles"}, start); return err },
		wantCode: "",
		same:     func() bool { return len(st.apiKeys) == keys },
		accepted: func() error {
			_, err := st.PostAPIKey(demo.ProjectID, doc{"desc": "reader", "roles": []any{"GROUP_READ_ONLY"}}, start)
			return err
		},
	}}
}

// Each request operation checks its body before it changes anything: a
// refused body reports its rule and leaves the record as it was, and an
// accepted one answers a nil error (not a nil rule in an error).
func TestRequestsCheckTheirBodiesBeforeTheyChangeAnything(t *testing.T) {
	st := NewState(demo.Fixtures(start), start)
	for _, tc := range requestCases(st) {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.refused()
			if err == nil {
				t.Fatal("refused body accepted")
			}
			if broken := brokenRule(err); broken.Code == "" || (tc.wantCode != "" && broken.Code != tc.wantCode) {
				t.Errorf("refused with %v, want a rule %q", err, tc.wantCode)
			}
			if !tc.same() {
				t.Error("a refused body changed the record")
			}
			if tc.accepted != nil {
				if err := tc.accepted(); err != nil {
					t.Errorf("accepted body: %v (%#v)", err, err)
				}
			}
		})
	}
}
