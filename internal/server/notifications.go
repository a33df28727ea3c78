package server

// notification is one entry of the notification log (docs/server.md).
type notification struct {
	ID            string        `json:"id"`
	AlertID       string        `json:"alertId"`
	AlertConfigID string        `json:"alertConfigId"`
	GroupID       string        `json:"groupId"`
	Global        bool          `json:"global"`
	Event         string        `json:"event"`
	TypeName      string        `json:"typeName"`
	SentAt        string        `json:"sentAt"`
	Target        doc           `json:"target"`
	Delivery      deliveryState `json:"delivery"`
}

type deliveryState struct {
	Status           string `json:"status"`
	Attempts         int    `json:"attempts"`
	LastResponseCode int    `json:"lastResponseCode,omitempty"`
	LastError        string `json:"lastError,omitempty"`
}

// delivery is a webhook notification to send.
type delivery struct {
	note               *notification
	url, secret, event string
	alert              *alertRec
	cur                *AlertDoc // the alert as it was when recorded
	body               []byte
}
