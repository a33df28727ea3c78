package engine

import (
	"reflect"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/model"
)

// The engine's reactions (Engine.process), one case a row of its table:
// each operation only changes its records, and the engine decides what
// that means for alerts in time.

const processConfig = "5f2a00000000000000000101"

// processTx is a write on the default fixtures with a HOST_DOWN
// configuration of its first project notifying an email and a webhook
// after delay minutes, every hour, and an alert it raised on db1 at start,
// whose targets were notified when due; and that alert.
func processTx(t *testing.T, delay int64) (*Tx, *alert.Rec) {
	t.Helper()
	f := fixture.Default()
	project := f.Projects[0]["id"].(string)
	f.AlertConfigs = append(f.AlertConfigs, rules.Doc{"id": processConfig, "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true,
		"notifications": []any{map[string]any{"typeName": "EMAIL", "emailAddress": "a@example.com", "delayMin": delay, "intervalMin": int64(60)},
			map[string]any{"typeName": "WEBHOOK", "webhookUrl": "http://127.0.0.1:1/x", "webhookSecret": "s", "delayMin": delay, "intervalMin": int64(60)}}})
	tx := newTx(f, start)
	changed := tx.Apply(Condition{Project: project, Event: "HOST_DOWN", Target: alert.Target{HostnameAndPort: "db1:27017"}}, start)
	if len(changed) != 1 {
		t.Fatalf("the condition changed %d alerts", len(changed))
	}
	tx.RunUntil(start)
	tx.react(start)
	tx.eng.Take()
	return tx, changed[0]
}

// events are the events of the notifications recorded since the last
// take.
func events(tx *Tx) []string {
	notes, _ := tx.eng.Take()
	var out []string
	for _, n := range notes {
		out = append(out, n.Event)
	}
	return out
}

func TestProcessAnAcknowledgementTellsTheTargetsNotified(t *testing.T) {
	tx, r := processTx(t, 0)
	later := start.Add(time.Minute)
	tx.SetAlert(r, r.Cur.Acknowledged(rules.FormatTime(later.Add(time.Hour)), "", "me", later))
	if got := events(tx); len(got) != 0 {
		t.Fatalf("the operation itself notified %v", got)
	}
	tx.react(later)
	if got := events(tx); len(got) != 2 || got[0] != "alert.acknowledge" || got[1] != "alert.acknowledge" {
		t.Fatalf("an acknowledgement told %v, want both targets alert.acknowledge", got)
	}
	if got := r.Cur.Doc()["lastNotified"]; got != rules.FormatTime(later) {
		t.Errorf("lastNotified is %v", got)
	}
	tx.SetAlert(r, r.Cur.Unacknowledged(later))
	tx.react(later)
	if got := events(tx); len(got) != 0 {
		t.Errorf("ending an acknowledgement told %v", got)
	}
}

// An acknowledgement of an alert still TRACKING tells nobody: no target
// was notified.
func TestProcessAnAcknowledgementOfATrackingAlertTellsNobody(t *testing.T) {
	tx, r := processTx(t, 30)
	if r.Status != api.StatusTracking {
		t.Fatalf("the alert is %s", r.Status)
	}
	tx.SetAlert(r, r.Cur.Acknowledged(rules.FormatTime(start.Add(time.Hour)), "", "me", start))
	tx.react(start)
	if got := events(tx); len(got) != 0 {
		t.Errorf("told %v", got)
	}
}

// The engine's own changes of an acknowledged alert (a later run of its
// schedule) are not an acknowledgement again.
func TestProcessIgnoresTheEnginesOwnChanges(t *testing.T) {
	tx, r := processTx(t, 0)
	tx.SetAlert(r, r.Cur.Acknowledged(rules.FormatTime(start.Add(time.Minute)), "", "me", start))
	tx.react(start)
	events(tx)
	tx.RunUntil(start.Add(2 * time.Hour)) // changes the alert (lastNotified), as the engine
	if w := tx.Written(); len(w) == 0 || w[0].By != model.ByEngine {
		t.Fatalf("the run's changes are %+v", w)
	}
	tx.react(start.Add(2 * time.Hour))
	for _, e := range events(tx) {
		if e == "alert.acknowledge" {
			t.Fatal("the engine's own change was taken for an acknowledgement")
		}
	}
}

// A write without operations sets nothing off.
func TestProcessAWriteWithoutOperationsChangesNothing(t *testing.T) {
	tx, _ := processTx(t, 0)
	tx.react(start)
	if got := events(tx); len(got) != 0 || len(tx.Written()) != 0 {
		t.Errorf("told %v, changed %v", got, tx.Written())
	}
}

func TestProcessAConfigurationDisabledOrRemovedCancelsItsAlerts(t *testing.T) {
	for name, op := range map[string]func(tx *Tx, cfg *model.AlertConfig){
		"disabled": func(tx *Tx, cfg *model.AlertConfig) { tx.SetConfigEnabled(cfg, false, start) },
		"replaced disabled": func(tx *Tx, cfg *model.AlertConfig) {
			body := cfg.Members()
			delete(body, "enabled")
			tx.ReplaceAlertConfig(cfg, body, start)
		},
		"removed": func(tx *Tx, cfg *model.AlertConfig) { tx.DeleteAlertConfig(cfg) },
	} {
		tx, r := processTx(t, 0)
		op(tx, tx.AlertConfigs(r.Project).Get(processConfig))
		if r.Status != api.StatusOpen {
			t.Fatalf("%s: the operation itself ended the alert", name)
		}
		tx.react(start)
		if got := events(tx); r.Status != api.StatusCancelled || len(got) != 2 || got[0] != "alert.cancel" {
			t.Errorf("%s: the alert is %s, the targets were told %v", name, r.Status, got)
		}
		if tx.eng.Scheduled() || len(tx.eng.Index(tx.State).ofConfig(processConfig)) != 0 {
			t.Errorf("%s: the cancelled alert is still scheduled or active", name)
		}
	}
}

// A configuration whose notifications come later moves when its TRACKING
// alerts open; one enabled again has none to move.
func TestProcessAConfigurationChangedMovesItsOpenings(t *testing.T) {
	tx, r := processTx(t, 30)
	if at, ok := tx.eng.NextOpening(); !ok || !at.Equal(start.Add(30*time.Minute)) {
		t.Fatalf("the alert opens at %v (%v)", at, ok)
	}
	cfg := tx.AlertConfigs(r.Project).Get(processConfig)
	body := cfg.Members()
	body["notifications"] = []any{map[string]any{"typeName": "EMAIL", "emailAddress": "a@example.com", "delayMin": int64(45), "intervalMin": int64(60)}}
	tx.ReplaceAlertConfig(cfg, body, start)
	tx.react(start)
	if at, ok := tx.eng.NextOpening(); !ok || !at.Equal(start.Add(45*time.Minute)) {
		t.Fatalf("after the change the alert opens at %v (%v), want 45 minutes after its creation", at, ok)
	}
	tx.PromoteAll(start.Add(44 * time.Minute))
	if r.Status != api.StatusTracking {
		t.Errorf("the alert opened at its old time")
	}
	tx.PromoteAll(start.Add(45 * time.Minute))
	if r.Status != api.StatusOpen {
		t.Errorf("the alert did not open at its new time")
	}
}

// A notification shows its target as the configuration's notification
// was redacted when stored: no redaction for each alert raised.
func TestANotificationShowsItsConfigurationsRedactedTarget(t *testing.T) {
	tx, r := processTx(t, 0)
	cfg := tx.AlertConfigs(r.Project).Get(processConfig)
	later := start.Add(time.Minute)
	tx.SetAlert(r, r.Cur.Acknowledged(rules.FormatTime(later.Add(time.Hour)), "", "me", later))
	tx.react(later)
	notes, _ := tx.eng.Take()
	if len(notes) != 2 {
		t.Fatalf("%d notifications", len(notes))
	}
	for i, n := range notes {
		if reflect.ValueOf(n.Target).UnsafePointer() != reflect.ValueOf(cfg.Notifications[i].Shown).UnsafePointer() {
			t.Errorf("notification %d shows %v, not its configuration's redacted target", i, n.Target)
		}
	}
}
