package store

import "github.com/omctl/omctl/internal/api"

// Notification is one entry of the notification log (docs/server.md),
// as the ListNotifications control shows it.
type Notification = api.Notification

// DeliveryState is how far a notification's webhook delivery went.
type DeliveryState = api.DeliveryState

// Delivery is a webhook notification to send.
type Delivery struct {
	Note               *Notification
	URL, Secret, Event string
	Alert              *AlertRec
	Cur                *AlertDoc // the alert as it was when recorded
	Body               []byte
}
