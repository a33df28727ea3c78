package alerts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// ForeverYears is how far ahead `--forever` acknowledges: the API
// recommends 100 years to acknowledge indefinitely. Counted in calendar
// years, so leap days do not shorten it.
const ForeverYears = 100

// AckOptions are the inputs of `alerts ack` and `alerts unack`.
type AckOptions struct {
	cmdutil.Deps
	Now func() time.Time

	// AlertID is the one alert of a single acknowledgement; AlertIDs
	// (where "-" reads ids from standard input), Status and Event choose
	// the alerts of a bulk one.
	AlertID  string
	AlertIDs []string
	Status   string
	Event    string
	DryRun   bool
	// Yes skips the question a bulk change asks at a terminal.
	Yes bool

	Until   string
	Forever bool
	Comment string
	// CommentSet says --comment was given, even empty: without it, a
	// new acknowledgement keeps the alert's comment.
	CommentSet bool
	// Unack removes the acknowledgement instead.
	Unack bool
}

// bulk reports whether the command acts on several alerts (or previews).
func (o *AckOptions) bulk() bool {
	return len(o.AlertIDs) > 0 || o.Status != "" || o.Event != "" || o.DryRun
}

// setArgs takes the ids of the command line: one id alone is the single
// acknowledgement of old, anything else a bulk one.
func (o *AckOptions) setArgs(args []string) {
	if len(args) == 1 && args[0] != "-" {
		o.AlertID = args[0]
		return
	}
	o.AlertIDs = args
}

// runE takes the ids and runs ack or unack, or runF in tests.
func (o *AckOptions) runE(runF func(context.Context, *AckOptions) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		o.setArgs(args)
		o.CommentSet = cmd.Flags().Changed("comment")
		if runF != nil {
			return runF(cmd.Context(), o)
		}
		return ackRun(cmd.Context(), o)
	}
}

// addBulkFlags adds the flags that choose alerts and preview the action.
func (o *AckOptions) addBulkFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.Status, "status", "", "act on every alert in this status: "+strings.Join(api.AlertStatuses, ", ")+" (any case)")
	cmd.Flags().StringVar(&o.Event, "event", "", "act on every alert of this event type (HOST_DOWN, REPLICA_SET, ...)")
	cmdutil.AddDryRunFlag(cmd, &o.DryRun)
	cmd.Flags().BoolVarP(&o.Yes, "yes", "y", false, "change several alerts without asking at a terminal")
	_ = cmd.RegisterFlagCompletionFunc("status", completeStatus)
}

// NewCmdAck builds `alerts ack`.
func NewCmdAck(f *cmdutil.Factory, runF func(context.Context, *AckOptions) error) *cobra.Command {
	opts := &AckOptions{Deps: cmdutil.NewDeps(f), Now: f.Now}
	cmd := &cobra.Command{
		Use:   "ack (ALERT_ID... | - | --status S --event E) (--until TIME | --forever) [--comment TEXT]",
		Short: "Acknowledge alerts",
		Long: `Acknowledge alerts until a time, which stops their notifications until then
(PATCH /groups/{project_id}/alerts/{alert_id}).

TIME is RFC 3339 (2026-12-01T10:00:00Z), a date (2026-12-01) or a duration
from now (4h, 30m, 7d). --forever acknowledges for 100 years, as the API
recommends for an indefinite acknowledgement. Acknowledging an alert again
keeps its comment unless --comment gives another (--comment "" removes it).

` + bulkHelp,
		Example: `  omctl alerts ack 5f1a0c2e8f9d4b0000000025 --until 4h --comment "disk swap in progress"
  omctl alerts ack 5f1a0c2e8f9d4b0000000025 --forever
  omctl alerts ack --status OPEN --event HOST_DOWN --until 4h
  omctl alerts list --status OPEN --all | cut -f1 | omctl alerts ack - --until 4h --dry-run`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeAlertIDs(f, true),
		RunE:              opts.runE(runF),
	}
	cmd.Flags().StringVar(&opts.Until, "until", "", "acknowledge until this time (RFC 3339, date or duration like 4h)")
	cmd.Flags().BoolVar(&opts.Forever, "forever", false, "acknowledge for 100 years")
	cmd.Flags().StringVar(&opts.Comment, "comment", "", "comment shown next to the acknowledgement (default: the alert's current comment)")
	cmd.MarkFlagsMutuallyExclusive("until", "forever")
	cmd.MarkFlagsOneRequired("until", "forever")
	opts.addBulkFlags(cmd)
	return cmd
}

// bulkHelp describes how ack and unack choose several alerts.
const bulkHelp = `Several alerts: give several ALERT_IDs, or - to read them from standard
input (one a line, the first field of each, as ` + "`alerts list --all | cut -f1`" + ` prints
them), or choose them with --status and --event instead of ids. A filter
selects only alerts the action means something for: without --status, ack
takes the OPEN and TRACKING alerts (never CLOSED or CANCELLED ones), and
unack the OPEN and TRACKING alerts that are acknowledged; --status STATUS
takes the alerts in that status instead. Ids given are acted on as given.
They are changed 8 at a time, and one line per alert says what happened: a
table on a terminal, tab-separated ID, RESULT and DETAIL when piped, a JSON
object per line with -o json or jsonl. Every alert is tried; the exit code
is 1 when any failed. --dry-run prints, for each alert, the PATCH it would
send and the diff of the alert, and changes nothing. At a terminal omctl
asks before changing several alerts; --yes skips that.

Without ids or flags, at a terminal, omctl offers the project's OPEN and
TRACKING alerts to choose from (space selects, / filters, Enter confirms);
elsewhere it is a usage error.`

// NewCmdUnack builds `alerts unack`.
func NewCmdUnack(f *cmdutil.Factory, runF func(context.Context, *AckOptions) error) *cobra.Command {
	opts := &AckOptions{Deps: cmdutil.NewDeps(f), Now: f.Now, Unack: true}
	cmd := &cobra.Command{
		Use:   "unack (ALERT_ID... | - | --status S --event E)",
		Short: "Remove the acknowledgement of alerts",
		Long: `Remove the acknowledgement of alerts, so their notifications resume
(PATCH /groups/{project_id}/alerts/{alert_id} without acknowledgedUntil).

` + bulkHelp,
		Example: `  omctl alerts unack 5f1a0c2e8f9d4b0000000025
  omctl alerts unack --event HOST_DOWN --status OPEN`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeAlertIDs(f, true),
		RunE:              opts.runE(runF),
	}
	opts.addBulkFlags(cmd)
	return cmd
}

func ackRun(ctx context.Context, opts *AckOptions) error {
	if opts.bulk() {
		return bulkAckRun(ctx, opts)
	}
	if opts.AlertID == "" {
		if picker, ok := opts.Picker(); ok {
			return pickAndAck(ctx, opts, picker)
		}
		return cmdutil.FlagErrorf("which alerts? give ALERT_ID..., - to read ids from standard input, or --status and --event")
	}
	if err := cmdutil.CheckID("alert", opts.AlertID); err != nil {
		return err
	}
	if err := opts.checkAckFlags(); err != nil {
		return err
	}
	// The client before the body: --until 4h and the future check count
	// from the server's clock, which the client learns (Factory.Now).
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, projectID, c := r.Printer, r.ProjectID, r.Client
	body, err := opts.ackBody()
	if err != nil {
		return err
	}
	if opts.needsCurrent() {
		current, err := c.Get(ctx, api.GetAlert.Path(projectID, opts.AlertID), nil)
		if err != nil {
			return err
		}
		if body, err = opts.bodyFor(body, c.Content(current)); err != nil {
			return err
		}
	}
	res, err := c.Send(ctx, api.AckAlert.Method, api.AckAlert.Path(projectID, opts.AlertID), body)
	if err != nil {
		return err
	}
	var got api.Alert
	if err := cmdutil.DecodeAnswer(c.Content(res), "an alert", &got); err != nil {
		return err
	}
	if err := ackApplied(opts.AlertID, body, got); err != nil {
		return err
	}
	return printer.Confirm(res, Table, ackMessage(opts.AlertID, body.AcknowledgedUntil != nil, got.AcknowledgedUntil))
}

// needsCurrent says whether the alert must be read before it is changed:
// to keep its comment, or to show the change (--dry-run).
func (opts *AckOptions) needsCurrent() bool {
	return opts.DryRun || (!opts.Unack && !opts.commentGiven())
}

func (opts *AckOptions) commentGiven() bool { return opts.CommentSet || opts.Comment != "" }

// bodyFor is the PATCH body for one alert, current as read: an
// acknowledgement that gives no comment keeps the alert's.
func (opts *AckOptions) bodyFor(body api.AcknowledgeRequest, current []byte) (api.AcknowledgeRequest, error) {
	var a api.Alert
	if err := cmdutil.DecodeAnswer(current, "an alert", &a); err != nil {
		return body, err
	}
	if body.AcknowledgedUntil != nil && !opts.commentGiven() && a.AcknowledgedUntil != "" {
		body.AcknowledgementComment = a.AcknowledgementComment
	}
	return body, nil
}

// ackApplied checks the server's answer shows the change asked for.
func ackApplied(id string, body api.AcknowledgeRequest, got api.Alert) error {
	switch {
	case body.AcknowledgedUntil != nil && got.AcknowledgedUntil == "":
		return errors.New(ackMessage(id, true, ""))
	case body.AcknowledgedUntil == nil && got.AcknowledgedUntil != "":
		return fmt.Errorf("alert %s is still acknowledged until %s: the server's answer shows the acknowledgement was not removed", id, got.AcknowledgedUntil)
	}
	return nil
}

// checkAckFlags finds the mistakes of --until and --forever that need no
// clock, before anything is sent.
func (opts *AckOptions) checkAckFlags() error {
	switch {
	case opts.Unack:
		return nil
	case opts.Forever && opts.Until != "":
		return cmdutil.FlagErrorf("--until and --forever cannot be used together")
	case opts.Until != "":
		if err := cmdutil.CheckTime(opts.Until); err != nil {
			return cmdutil.FlagErrorf("invalid --until: %v", err)
		}
	case !opts.Forever:
		return cmdutil.FlagErrorf("say how long to acknowledge: --until TIME or --forever")
	}
	return nil
}

// ackPreview is what --dry-run shows for one alert: the PATCH and the
// alert as it would be.
func ackPreview(path string, body api.AcknowledgeRequest, current []byte) (cmdutil.Write, error) {
	before, err := cmdutil.Object(current, "an alert")
	if err != nil {
		return cmdutil.Write{}, err
	}
	after := make(map[string]any, len(before))
	for k, v := range before {
		after[k] = v
	}
	delete(after, "acknowledgementComment")
	if body.AcknowledgedUntil == nil {
		delete(after, "acknowledgedUntil")
		delete(after, "acknowledgingUsername")
	} else {
		after["acknowledgedUntil"] = *body.AcknowledgedUntil
		if body.AcknowledgementComment != "" {
			after["acknowledgementComment"] = body.AcknowledgementComment
		}
	}
	return cmdutil.Write{Method: api.AckAlert.Method, Path: path, Body: body, Before: current, After: after}, nil
}

// ackBody is the PATCH body: the end of the acknowledgement and its
// comment, or nothing to end one.
func (opts *AckOptions) ackBody() (api.AcknowledgeRequest, error) {
	var body api.AcknowledgeRequest
	if !opts.Unack {
		var until time.Time
		switch {
		case opts.Forever && opts.Until != "":
			return body, cmdutil.FlagErrorf("--until and --forever cannot be used together")
		case opts.Forever:
			until = opts.Now().AddDate(ForeverYears, 0, 0)
		case opts.Until != "":
			t, err := cmdutil.ParseTime(opts.Until, opts.Now())
			if err != nil {
				return body, cmdutil.FlagErrorf("invalid --until: %v", err)
			}
			if now := opts.Now(); !t.After(now) {
				return body, cmdutil.FlagErrorf("invalid --until %q: %s is not in the future (the server's time is %s)", opts.Until, cmdutil.FormatTime(t), cmdutil.FormatTime(now))
			}
			until = t
		default:
			return body, cmdutil.FlagErrorf("say how long to acknowledge: --until TIME or --forever")
		}
		s := cmdutil.FormatTime(until)
		body.AcknowledgedUntil = &s
		body.AcknowledgementComment = opts.Comment
	}
	return body, nil
}

// ackMessage says what the server's answer shows, which is not always what
// was asked: an end already past on the server's clock acknowledges nothing.
func ackMessage(id string, asked bool, until string) string {
	switch {
	case until != "":
		return fmt.Sprintf("Alert %s acknowledged until %s", id, until)
	case asked:
		return fmt.Sprintf("Alert %s is not acknowledged: the server's answer has no acknowledgedUntil (was that time already past on the server's clock?)", id)
	}
	return fmt.Sprintf("Alert %s unacknowledged", id)
}
