package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// FaultsAddOptions are the inputs of `server faults add`.
type FaultsAddOptions struct {
	cmdutil.Deps

	Method      string
	Path        string
	Status      int
	ErrorCode   string
	RetryAfter  *int64
	Delay       string
	Times       *int64
	Probability float64
	Reset       bool
	// Given lists the flags set, so only those are sent.
	Given func(name string) bool
}

// NewCmdFaultsAdd builds `server faults add`.
func NewCmdFaultsAdd(f *cmdutil.Factory, runF func(context.Context, *FaultsAddOptions) error) *cobra.Command {
	opts := &FaultsAddOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "add --path GLOB [--method M] (--status N [--error-code C] [--retry-after S] | --reset) [--delay D] [--times N] [--probability P]",
		Short: "Add a fault to a running omctl server",
		Long: `Add a fault (POST /_omctl/faults): the API requests it matches, once
authenticated and past the access list, wait --delay, then get --status
with the API's error body (and a Retry-After header with --retry-after), or,
with --reset, a connection closed without an answer; with neither, they are
served normally after the delay. A faulted request changes nothing.

--path is matched against the path after the API base path: * stands for one
segment, ** for any number of them (/groups/*/alerts, /admin/**). --times
ends the fault after that many requests; --probability applies it to that
share of the matching requests. --error-code defaults to the usual code of
the status (503 SERVICE_UNAVAILABLE, 429 RATE_LIMITED, 409 CONFLICT...).
docs/server.md describes faults.`,
		Example: `  omctl server faults add --path '/groups/*/alerts' --method GET --status 503 --retry-after 2 --times 2
  omctl server faults add --path '/**' --status 429 --probability 0.2
  omctl server faults add --path /globalAlerts --delay 1500ms
  omctl server faults add --path '/groups/**' --method POST --reset --times 1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Given = cmd.Flags().Changed
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return faultsAddRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Path, "path", "", "path glob after the API base path: * one segment, ** any number")
	fl.StringVar(&opts.Method, "method", "", "only requests with this method: "+strings.Join(api.FaultMethods, ", "))
	fl.IntVar(&opts.Status, "status", 0, "answer this status, 400 to 599, with the error body")
	fl.StringVar(&opts.ErrorCode, "error-code", "", "errorCode of the answer (default: the status's usual code)")
	cmdutil.OptionalInt64Var(fl, &opts.RetryAfter, "retry-after", "send Retry-After with this many seconds")
	fl.StringVar(&opts.Delay, "delay", "", "wait this long first, a Go duration such as 1500ms or 2s")
	cmdutil.OptionalInt64Var(fl, &opts.Times, "times", "apply to this many requests, then end (default: no end)")
	fl.Float64Var(&opts.Probability, "probability", 1, "share of the matching requests to apply to, 0 to 1")
	fl.BoolVar(&opts.Reset, "reset", false, "close the connection without an answer")
	_ = cmd.MarkFlagRequired("path")
	cmd.MarkFlagsMutuallyExclusive("status", "reset")
	_ = cmd.RegisterFlagCompletionFunc("method", cmdutil.CompleteValues(api.FaultMethods...))
	return cmd
}

// faultBody checks the flags by the server's rules (internal/rules), and
// returns the body of the fault with the flags given.
func faultBody(opts *FaultsAddOptions) (map[string]any, error) {
	given := opts.Given
	if given == nil {
		given = func(string) bool { return true }
	}
	body := map[string]any{"path": opts.Path}
	if err := rules.FaultPath("--path", opts.Path); err != nil {
		return nil, cmdutil.FlagErrorf("invalid %s", err.Rule())
	}
	if given("method") {
		if !slices.Contains(api.FaultMethods, opts.Method) {
			return nil, cmdutil.FlagErrorf("invalid --method %q: valid methods are %s", opts.Method, strings.Join(api.FaultMethods, ", "))
		}
		body["method"] = opts.Method
	}
	if given("status") {
		if opts.Status < 400 || opts.Status > 599 {
			return nil, cmdutil.FlagErrorf("invalid --status %d: want 400 to 599", opts.Status)
		}
		body["status"] = opts.Status
	}
	if given("error-code") || opts.RetryAfter != nil {
		if !given("status") {
			return nil, cmdutil.FlagErrorf("--error-code and --retry-after go with --status")
		}
	}
	if given("error-code") {
		if err := rules.ErrorCode("--error-code", opts.ErrorCode); err != nil {
			return nil, cmdutil.FlagErrorf("invalid %s", err.Rule())
		}
		body["errorCode"] = opts.ErrorCode
	}
	if opts.RetryAfter != nil {
		if n := *opts.RetryAfter; n < 0 || n > api.MaxRetryAfter {
			return nil, cmdutil.FlagErrorf("invalid --retry-after %d: want 0 to %d seconds", n, api.MaxRetryAfter)
		}
		body["retryAfter"] = *opts.RetryAfter
	}
	if given("delay") {
		if _, err := rules.FaultDelay("--delay", opts.Delay); err != nil {
			return nil, cmdutil.FlagErrorf("invalid %s", err.Rule())
		}
		body["delay"] = opts.Delay
	}
	if opts.Times != nil {
		if n := *opts.Times; n < 1 || n > api.MaxFaultTimes {
			return nil, cmdutil.FlagErrorf("invalid --times %d: want 1 to %d", n, int64(api.MaxFaultTimes))
		}
		body["times"] = *opts.Times
	}
	if given("probability") {
		if !(opts.Probability >= 0 && opts.Probability <= 1) {
			return nil, cmdutil.FlagErrorf("invalid --probability %g: want 0 to 1", opts.Probability)
		}
		body["probability"] = opts.Probability
	}
	if opts.Reset {
		body["reset"] = true
	}
	if err := checkWholeFault(body); err != nil {
		return nil, err
	}
	return body, nil
}

// checkWholeFault checks the whole body, as the server will read it, by
// the server's rules: what passes here is not refused there.
func checkWholeFault(body map[string]any) error {
	data, _ := json.Marshal(body)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var sent rules.Doc
	if err := dec.Decode(&sent); err != nil {
		return err
	}
	if err := rules.CheckFault(sent); err != nil {
		return cmdutil.FlagErrorf("invalid fault: %s", err.Rule())
	}
	return nil
}

func faultsAddRun(ctx context.Context, opts *FaultsAddOptions) error {
	body, err := faultBody(opts)
	if err != nil {
		return err
	}
	printer, err := opts.Printer()
	if err != nil {
		return err
	}
	res, err := control(ctx, opts.Deps, api.AddFault, body)
	if err != nil {
		return err
	}
	var added api.Fault
	if err := cmdutil.DecodeAnswer(res, "a fault", &added); err != nil {
		return err
	}
	return printer.Confirm(res, FaultTable, fmt.Sprintf("Fault %s added on %s", added.ID, added.Path))
}
