package server

import (
	"context"
	"net/url"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// NotificationsOptions are the inputs of `omctl server notifications`.
type NotificationsOptions struct {
	cmdutil.Deps
	AlertID string
	Event   string
	Type    string
	List    *cmdutil.ListFlags
}

var notificationsTable = output.Columns([]string{"SENT", "EVENT", "TYPE", "ALERT", "DELIVERY"},
	func(n api.Notification) []string {
		return []string{n.SentAt, n.Event, n.TypeName, n.AlertID, n.Delivery.Status}
	})

// NewCmdNotifications builds `omctl server notifications`.
func NewCmdNotifications(f *cmdutil.Factory, runF func(context.Context, *NotificationsOptions) error) *cobra.Command {
	opts := &NotificationsOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "notifications [--alert ID] [--event EVENT] [--type KIND]",
		Short: "List the notifications a running server's alert engine sent",
		Long: `List the notification log of a running omctl server (the profile's), oldest
first: every notification the alert engine recorded, with the state of its
webhook delivery.`,
		Example: `  omctl server notifications --alert 5f1a0c2e8f9d4b0000000025
  omctl server notifications --event alert.open --type WEBHOOK -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return notificationsRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.AlertID, "alert", "", "only the notifications of this alert")
	cmd.Flags().StringVar(&opts.Event, "event", "", "only this event: alert.open, alert.update, alert.acknowledge, alert.close, alert.cancel")
	cmd.Flags().StringVar(&opts.Type, "type", "", "only this kind of notification, e.g. WEBHOOK")
	_ = cmd.RegisterFlagCompletionFunc("event", cmdutil.CompleteValues("alert.open", "alert.update", "alert.acknowledge", "alert.close", "alert.cancel"))
	// The journal of notifications is a test control, not an API list: it
	// takes no backupJobsEnabledOnly.
	opts.List = cmdutil.AddListFlags(cmd, false)
	return cmd
}

func notificationsRun(ctx context.Context, opts *NotificationsOptions) error {
	lo, err := opts.List.ListOptions()
	if err != nil {
		return err
	}
	q := url.Values{}
	for k, v := range map[string]string{"alertId": opts.AlertID, "event": opts.Event, "typeName": opts.Type} {
		if v != "" {
			q.Set(k, v)
		}
	}
	lo.Query = q
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, c := r.Printer, r.Client
	return notOmctlServer(api.ListNotifications, printer.List(c.Pages(ctx, api.ListNotifications.Path(), lo), opts.List.Part(), notificationsTable))
}
