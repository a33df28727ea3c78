package alerts

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// ForeverYears is how far ahead `--forever` acknowledges: the API
// recommends 100 years to acknowledge indefinitely. Counted in calendar
// years, so leap days do not shorten it.
const ForeverYears = 100

// AckOptions are the inputs of `alerts ack` and `alerts unack`.
type AckOptions struct {
	Client    func() (*client.Client, error)
	Printer   func() (*output.Printer, error)
	ProjectID func() (string, error)
	Now       func() time.Time

	AlertID string
	Until   string
	Forever bool
	Comment string
	// Unack removes the acknowledgement instead.
	Unack bool
}

// NewCmdAck builds `alerts ack`.
func NewCmdAck(f *cmdutil.Factory, runF func(context.Context, *AckOptions) error) *cobra.Command {
	opts := &AckOptions{Client: f.Client, Printer: f.Printer, ProjectID: f.ProjectID, Now: f.Now}
	cmd := &cobra.Command{
		Use:   "ack ALERT_ID (--until TIME | --forever) [--comment TEXT]",
		Short: "Acknowledge an alert",
		Long: `Acknowledge an alert until a time, which stops its notifications until then
(PATCH /groups/{project_id}/alerts/{alert_id}).

TIME is RFC 3339 (2026-12-01T10:00:00Z), a date (2026-12-01) or a duration
from now (4h, 30m, 7d). --forever acknowledges for 100 years, as the API
recommends for an indefinite acknowledgement.`,
		Example: `  omctl alerts ack 5f1a0c2e8f9d4b0012345678 --until 4h --comment "disk swap in progress"
  omctl alerts ack 5f1a0c2e8f9d4b0012345678 --forever`,
		Args:              cmdutil.ExactArgs(1, "ALERT_ID"),
		ValidArgsFunction: completeAlertIDs(f, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.AlertID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return ackRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Until, "until", "", "acknowledge until this time (RFC 3339, date or duration like 4h)")
	cmd.Flags().BoolVar(&opts.Forever, "forever", false, "acknowledge for 100 years")
	cmd.Flags().StringVar(&opts.Comment, "comment", "", "comment shown next to the acknowledgement")
	cmd.MarkFlagsMutuallyExclusive("until", "forever")
	cmd.MarkFlagsOneRequired("until", "forever")
	return cmd
}

// NewCmdUnack builds `alerts unack`.
func NewCmdUnack(f *cmdutil.Factory, runF func(context.Context, *AckOptions) error) *cobra.Command {
	opts := &AckOptions{Client: f.Client, Printer: f.Printer, ProjectID: f.ProjectID, Now: f.Now, Unack: true}
	return &cobra.Command{
		Use:               "unack ALERT_ID",
		Short:             "Remove the acknowledgement of an alert",
		Long:              "Remove the acknowledgement of an alert, so its notifications resume (PATCH /groups/{project_id}/alerts/{alert_id} without acknowledgedUntil).",
		Example:           "  omctl alerts unack 5f1a0c2e8f9d4b0012345678",
		Args:              cmdutil.ExactArgs(1, "ALERT_ID"),
		ValidArgsFunction: completeAlertIDs(f, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.AlertID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return ackRun(cmd.Context(), opts)
		},
	}
}

func ackRun(ctx context.Context, opts *AckOptions) error {
	if err := cmdutil.CheckID("alert", opts.AlertID); err != nil {
		return err
	}
	var body api.AcknowledgeRequest
	if !opts.Unack {
		var until time.Time
		switch {
		case opts.Forever && opts.Until != "":
			return cmdutil.FlagErrorf("--until and --forever cannot be used together")
		case opts.Forever:
			until = opts.Now().AddDate(ForeverYears, 0, 0)
		case opts.Until != "":
			t, err := cmdutil.ParseTime(opts.Until, opts.Now())
			if err != nil {
				return cmdutil.FlagErrorf("invalid --until: %v", err)
			}
			if !t.After(opts.Now()) {
				return cmdutil.FlagErrorf("invalid --until %q: it is not in the future", opts.Until)
			}
			until = t
		default:
			return cmdutil.FlagErrorf("say how long to acknowledge: --until TIME or --forever")
		}
		s := cmdutil.FormatTime(until)
		body.AcknowledgedUntil = &s
		body.AcknowledgementComment = opts.Comment
	}
	printer, err := opts.Printer()
	if err != nil {
		return err
	}
	projectID, err := opts.ProjectID()
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	res, err := c.Send(ctx, http.MethodPatch, alertPath(projectID, opts.AlertID), body)
	if err != nil {
		return err
	}
	var got api.Alert
	if err := cmdutil.DecodeAnswer(c.Content(res), "an alert", &got); err != nil {
		return err
	}
	return printer.Confirm(res, Table, ackMessage(opts.AlertID, body.AcknowledgedUntil != nil, got.AcknowledgedUntil))
}

// ackMessage says what the server's answer shows, which is not always what
// was asked: an end already past on the server's clock acknowledges nothing.
func ackMessage(id string, asked bool, until string) string {
	switch {
	case until != "":
		return fmt.Sprintf("Alert %s acknowledged until %s", id, until)
	case asked:
		return fmt.Sprintf("Alert %s is not acknowledged: the server's answer has no acknowledgedUntil (is the server's clock ahead of this machine's?)", id)
	}
	return fmt.Sprintf("Alert %s unacknowledged", id)
}
