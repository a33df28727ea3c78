package engine

import (
	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/store/alert"
)

// Notification is one entry of the notification log (docs/server.md),
// as the ListNotifications control shows it.
type Notification = api.Notification

// DeliveryState is how far a notification's webhook delivery went.
type DeliveryState = api.DeliveryState

// Delivery is a webhook notification to send.
type Delivery struct {
	Note               *Notification
	URL, Secret, Event string
	Alert              *alert.Rec
	Body               []byte
	cur                *alert.Doc // the alert when recorded, but for lastNotified
	sentAt             string
}

// Cur is the alert as GET showed it once the notification was recorded:
// lastNotified is its time. Made when asked (outside the data lock), and
// only for the deliveries that are sent.
func (d *Delivery) Cur() *alert.Doc { return d.cur.WithTimes("lastNotified", d.sentAt) }
