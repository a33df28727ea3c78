package model

// The notification schedules of the alerts the engine raised are kept in
// the state file too, so that after a restart those alerts go on being
// notified (docs/server.md, "State"): each as its configuration's
// notifications were when the alert was raised, and which of them were
// notified already.

// SchedulesKind is the state file's bucket of schedules, by alert id.
const SchedulesKind = "schedules"

// ScheduleRecord is a schedule as the state file keeps it.
type ScheduleRecord struct {
	Identity      *string `json:"identity"` // of the condition that raised the alert
	Global        bool    `json:"global"`
	Notifications []doc   `json:"notifications"`
	Notified      []bool  `json:"notified"`
}
