package server

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// ClockOptions are the inputs of `omctl server clock`.
type ClockOptions struct {
	cmdutil.Deps
	Action string // "", "advance" or "set"
	Value  string
}

// NewCmdClock builds `omctl server clock`.
func NewCmdClock(f *cmdutil.Factory, runF func(context.Context, *ClockOptions) error) *cobra.Command {
	opts := &ClockOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "clock [advance DURATION | set TIME]",
		Short: "Show or move a running server's clock",
		Long: `Show the clock of a running omctl server (the profile's), or move it forward:
advance by a duration (15m, 2h, 1500ms), or set a later RFC 3339 time. Alerts
that fall due open, and notifications that fall due are sent, in time order,
before the command returns.`,
		Example: `  omctl server clock
  omctl server clock advance 15m
  omctl server clock set 2026-06-01T00:00:00Z`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return nil
			case len(args) == 2 && (args[0] == "advance" || args[0] == "set"):
				return nil
			}
			return cmdutil.FlagErrorf("usage: omctl server clock [advance DURATION | set TIME]")
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 2 {
				opts.Action, opts.Value = args[0], args[1]
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return clockRun(cmd.Context(), opts)
		},
	}
	return cmd
}

func clockRun(ctx context.Context, opts *ClockOptions) error {
	e, body := api.GetClock, any(nil)
	switch opts.Action {
	case "advance":
		d, err := time.ParseDuration(opts.Value)
		if err != nil || d < 0 {
			return cmdutil.FlagErrorf("invalid duration %q: want a positive duration such as 15m, 2h or 1500ms", opts.Value)
		}
		e, body = api.MoveClock, map[string]any{"advance": opts.Value}
	case "set":
		if _, err := time.Parse(time.RFC3339, opts.Value); err != nil {
			return cmdutil.FlagErrorf("invalid time %q: want RFC 3339 such as 2026-06-01T00:00:00Z", opts.Value)
		}
		e, body = api.MoveClock, map[string]any{"set": opts.Value}
	}
	printer, err := opts.Printer()
	if err != nil {
		return err
	}
	res, err := control(ctx, opts.Deps, e, body)
	if err != nil {
		return err
	}
	return printer.Resource(res, clockTable)
}

var clockTable = output.Columns([]string{"NOW"}, func(c api.Clock) []string {
	return []string{c.Now}
})

// ResetOptions are the inputs of `omctl server reset`.
type ResetOptions struct {
	cmdutil.Deps
}

// NewCmdReset builds `omctl server reset`.
func NewCmdReset(f *cmdutil.Factory, runF func(context.Context, *ResetOptions) error) *cobra.Command {
	opts := &ResetOptions{Deps: cmdutil.NewDeps(f)}
	return &cobra.Command{
		Use:   "reset",
		Short: "Put a running server's data back to what it started with",
		Long: `Put the data of a running omctl server (the profile's) back to its fixtures,
and empty its notification log. The clock stays where it is.`,
		Example: `  omctl server reset`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			if _, err := control(cmd.Context(), opts.Deps, api.ResetData, nil); err != nil {
				return err
			}
			fmt.Fprintln(opts.IO.ErrOut, "✓ The server's data is back to what it started with")
			return nil
		},
	}
}
