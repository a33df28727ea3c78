package store

// Notification is one entry of the Notification log (docs/server.md).
type Notification struct {
	ID            string        `json:"id"`
	AlertID       string        `json:"alertId"`
	AlertConfigID string        `json:"alertConfigId"`
	GroupID       string        `json:"groupId"`
	Global        bool          `json:"global"`
	Event         string        `json:"event"`
	TypeName      string        `json:"typeName"`
	SentAt        string        `json:"sentAt"`
	Target        doc           `json:"target"`
	Delivery      DeliveryState `json:"delivery"`
}

type DeliveryState struct {
	Status           string `json:"status"`
	Attempts         int    `json:"attempts"`
	LastResponseCode int    `json:"lastResponseCode,omitempty"`
	LastError        string `json:"lastError,omitempty"`
}

// Delivery is a webhook notification to send.
type Delivery struct {
	Note               *Notification
	URL, Secret, Event string
	Alert              *AlertRec
	Cur                *AlertDoc // the alert as it was when recorded
	Body               []byte
}
