package alerts

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// NewCmdWait builds `alerts wait`.
func NewCmdWait(f *cmdutil.Factory, runF func(context.Context, *WaitOptions) error) *cobra.Command {
	opts := &WaitOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "wait ALERT_ID --for-status STATUS [--max-wait 10m]",
		Short: "Wait until an alert reaches a status",
		Long: `Poll an alert until it reaches a status, for CI jobs: exit 0 when it does,
1 when --max-wait passes first (3 if the alert does not exist).

--max-wait is how long to wait in all; each poll gives up after --request-timeout,
the time limit of every request.`,
		Example: `  omctl alerts wait 5f1a0c2e8f9d4b0000000025 --for-status CLOSED --max-wait 30m
  omctl alerts wait 5f1a0c2e8f9d4b0000000025 --for-status OPEN --interval 5s`,
		Args:              cmdutil.ExactArgs(1, "ALERT_ID"),
		ValidArgsFunction: completeAlertIDs(f, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.AlertID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return waitRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.ForStatus, "for-status", "", "status to wait for: "+strings.Join(api.AlertStatuses, ", "))
	cmd.Flags().DurationVar(&opts.Timeout, "max-wait", 10*time.Minute, "give up after this long (exit 1)")
	// --timeout meant --max-wait here once, hiding the global --timeout.
	cmd.Flags().DurationVar(&opts.Timeout, "timeout", 10*time.Minute, "")
	_ = cmd.Flags().MarkDeprecated("timeout", "use --max-wait; the global --timeout is the time limit of the whole command, as for every other command")
	cmd.Flags().DurationVar(&opts.Interval, "interval", 10*time.Second, "time between polls")
	_ = cmd.MarkFlagRequired("for-status")
	_ = cmd.RegisterFlagCompletionFunc("for-status", cmdutil.CompleteValues(api.AlertStatuses...))
	return cmd
}

// WaitOptions are the inputs of `alerts wait`.
type WaitOptions struct {
	cmdutil.Deps

	AlertID   string
	ForStatus string
	Timeout   time.Duration
	Interval  time.Duration
}

func waitRun(ctx context.Context, opts *WaitOptions) error {
	if err := cmdutil.CheckID("alert", opts.AlertID); err != nil {
		return err
	}
	if !api.OneOf(opts.ForStatus, api.AlertStatuses) {
		return cmdutil.FlagErrorf("invalid --for-status %q: valid values are %s", opts.ForStatus, strings.Join(api.AlertStatuses, ", "))
	}
	if opts.Timeout <= 0 || opts.Interval <= 0 {
		return cmdutil.FlagErrorf("--max-wait and --interval must be positive")
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, projectID, c := r.Printer, r.ProjectID, r.Client
	// The time limit has its own cause, so that running out of time and
	// being interrupted (exit 130, no message) stay apart.
	errMaxWait := fmt.Errorf("timed out after %s waiting for alert %s to be %s", opts.Timeout, opts.AlertID, opts.ForStatus)
	ctx, cancel := context.WithTimeoutCause(ctx, opts.Timeout, errMaxWait)
	defer cancel()
	tick := time.NewTicker(opts.Interval)
	defer tick.Stop()
	last := ""
	for {
		body, err := c.Get(ctx, api.GetAlert.Path(projectID, opts.AlertID), nil)
		if err != nil && ctx.Err() == nil {
			return err
		}
		if err == nil {
			var a api.Alert
			if err := json.Unmarshal(c.Content(body), &a); err != nil {
				return fmt.Errorf("the server's answer is not an alert: %s", cmdutil.DescribeJSONError(err))
			}
			last = a.Status
			if a.Status == opts.ForStatus {
				return printer.Confirm(body, Table, fmt.Sprintf("Alert %s is %s", opts.AlertID, a.Status))
			}
		}
		select {
		case <-ctx.Done():
			if context.Cause(ctx) != errMaxWait {
				return cmdutil.StopCause(ctx) // Ctrl-C, or the command's --timeout
			}
			return fmt.Errorf("%w (last status: %s)", errMaxWait, last)
		case <-tick.C:
		}
	}
}
