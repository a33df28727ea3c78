package server

import (
	"context"
	"net/url"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// RequestsOptions are the inputs of `server requests`.
type RequestsOptions struct {
	cmdutil.Deps

	Method string
	Path   string
	Status *int // nil: any
	Caller *string
	Clear  bool
	List   *cmdutil.ListFlags
}

// NewCmdRequests builds `server requests`.
func NewCmdRequests(f *cmdutil.Factory, runF func(context.Context, *RequestsOptions) error) *cobra.Command {
	opts := &RequestsOptions{Deps: cmdutil.NewDeps(f)}
	var caller string
	var status int
	cmd := &cobra.Command{
		Use:   "requests [--method M] [--path P] [--status N] [--caller C] [--clear]",
		Short: "Show the requests a running omctl server received",
		Long: `Show the journal of a running omctl server: every request made to its API,
oldest first, with the status and error code it was answered, who made it
(empty without valid credentials), from which address, and its JSON body
with secrets replaced by "<redacted>" (GET /_omctl/requests).

It talks to the server of the profile (or --base-url, OMCTL_BASE_URL), with
a GLOBAL_OWNER key. --path matches the start of the path, with or
without the API base path. --clear empties the journal instead
(DELETE /_omctl/requests). docs/server.md describes the journal.`,
		Example: `  omctl server requests --method PATCH
  omctl server requests --status 401 --caller ""
  omctl server requests --path /groups/ -o json --jq '.results[].body'
  omctl server requests --clear`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("caller") {
				opts.Caller = &caller
			}
			if cmd.Flags().Changed("status") {
				opts.Status = &status
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return requestsRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Method, "method", "", "only requests with this method (GET, POST, PUT, PATCH, DELETE)")
	fl.StringVar(&opts.Path, "path", "", "only requests whose path starts with this")
	fl.IntVar(&status, "status", 0, "only requests answered with this HTTP status (0: closed by a fault without an answer)")
	fl.StringVar(&caller, "caller", "", `only requests of this public key or user name ("" for those without valid credentials)`)
	fl.BoolVar(&opts.Clear, "clear", false, "empty the journal instead of showing it")
	_ = cmd.RegisterFlagCompletionFunc("method", cmdutil.CompleteValues("GET", "POST", "PUT", "PATCH", "DELETE"))
	opts.List = cmdutil.AddListFlags(cmd, false)
	return cmd
}

func requestsRun(ctx context.Context, opts *RequestsOptions) error {
	q := url.Values{}
	if opts.Method != "" {
		q.Set("method", opts.Method)
	}
	if opts.Path != "" {
		q.Set("path", opts.Path)
	}
	if opts.Status != nil {
		if n := *opts.Status; n != 0 && (n < 100 || n > 599) {
			return cmdutil.FlagErrorf("invalid --status %d: want an HTTP status from 100 to 599, or 0", n)
		}
		q.Set("status", strconv.Itoa(*opts.Status))
	}
	if opts.Caller != nil {
		q.Set("caller", *opts.Caller)
	}
	if opts.Clear && len(q) > 0 {
		return cmdutil.FlagErrorf("--clear empties the whole journal: it takes no filter")
	}
	printer, err := opts.Printer()
	if err != nil {
		return err
	}
	lo, err := opts.List.ListOptions()
	if err != nil {
		return err
	}
	lo.Query = q
	if opts.Clear {
		body, err := control(ctx, opts.Deps, api.ClearRequests, nil)
		if err != nil {
			return err
		}
		return confirmCleared(opts.IO, printer, body, "Journal emptied")
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	return notOmctlServer(api.ListRequests, printer.List(c.Pages(ctx, api.ListRequests.Path(), lo), opts.List.Part(), RequestTable))
}
