// Package api implements `omctl api`: an authenticated call to any path of
// the API, for what no command covers yet (like `gh api`).
package api

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
)

// Options are the inputs of `omctl api`.
type Options struct {
	IO        *iostreams.IOStreams
	Client    func() (*client.Client, error)
	Printer   func() (*output.Printer, error)
	ProjectID func() (string, error)
	OrgID     func() (string, error)

	Method   string
	Path     string
	Input    string
	Paginate bool
	// MethodSet says -X was given; without it, fields make the request a POST.
	MethodSet bool
	Fields    Fields
	Include   bool
}

// NewCmdAPI builds `omctl api`.
func NewCmdAPI(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Client: f.Client, ProjectID: f.ProjectID, OrgID: f.OrgID,
		Printer: f.JSONPrinter}
	cmd := &cobra.Command{
		Use:   "api [-X METHOD] PATH [--input FILE|-] [-f|-F key=value]... [-i] [--paginate]",
		Short: "Make an authenticated API request",
		Long: `Make an authenticated request to PATH, relative to the base URL
(/api/public/v1.0), and print the JSON answer. PATH may also be a full URL of
the same server, as the API gives in links[].href. -o table does not apply:
the answer prints as JSON.

{project_id} and {org_id} in PATH are replaced by --project and --org (or the
profile's). With --paginate, a GET of a list fetches every page and prints
one merged list (or one item a line with -o jsonl).

-f key=value adds a string field, -F key=value a typed one (true, false, null
and numbers as JSON, @FILE for a file's content). Fields go in the query of a
GET and in a JSON object body otherwise; with fields and no -X the method is
POST. -i prints the answer's status line and headers first.`,
		Example: `  omctl api /groups/{project_id}/alerts --paginate --jq '.results | length'
  omctl api -X PATCH /groups/{project_id}/alertConfigs/5f1a0c2e8f9d4b0012345678 --input - <<< '{"enabled":false}'
  omctl api /admin/backup/oplog/s3Configs/oplog-east-1
  omctl api -X PATCH /groups/{project_id}/alertConfigs/5f1a0c2e8f9d4b0012345678 -F enabled=false
  omctl api -X GET /groups/{project_id}/alerts -f status=OPEN -F itemsPerPage=5 -i`,
		Args: cmdutil.ExactArgs(1, "PATH"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			opts.MethodSet = cmd.Flags().Changed("method")
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return apiRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Method, "method", "X", "GET", "HTTP method")
	cmd.Flags().StringVar(&opts.Input, "input", "", "file holding the JSON request body, - for standard input")
	cmd.Flags().BoolVar(&opts.Paginate, "paginate", false, "fetch every page of a list (GET only)")
	cmd.Flags().StringArrayVarP(&opts.Fields.Raw, "raw-field", "f", nil, "add a string field key=value (repeatable)")
	cmd.Flags().StringArrayVarP(&opts.Fields.Typed, "field", "F", nil, "add a typed field key=value: true, false, null, numbers, @FILE (repeatable)")
	cmd.Flags().BoolVarP(&opts.Include, "include", "i", false, "print the status line and headers of the answer first")
	cmd.MarkFlagsMutuallyExclusive("input", "raw-field")
	cmd.MarkFlagsMutuallyExclusive("input", "field")
	return cmd
}

var methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

func apiRun(ctx context.Context, opts *Options) error {
	method := strings.ToUpper(opts.Method)
	if !opts.MethodSet && !opts.Fields.Empty() {
		method = http.MethodPost // as gh api: fields mean a body
	}
	valid := false
	for _, m := range methods {
		valid = valid || m == method
	}
	if !valid {
		return cmdutil.FlagErrorf("invalid method %q: valid methods are %s", opts.Method, strings.Join(methods, ", "))
	}
	if opts.Paginate && method != http.MethodGet {
		return cmdutil.FlagErrorf("--paginate works with GET only")
	}
	if opts.Paginate && opts.Include {
		return cmdutil.FlagErrorf("-i shows the headers of one answer: leave out --paginate, or -i")
	}
	path, query, err := expandPath(opts)
	if err != nil {
		return err
	}
	body, err := opts.Fields.apply(method, query)
	if err != nil {
		return err
	}
	if opts.Input != "" {
		if body, err = cmdutil.ReadJSONInput(opts.IO, "--input", opts.Input); err != nil {
			return err
		}
	}
	printer, err := opts.Printer()
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	if path, err = fullURLPath(c, path); err != nil {
		return err
	}
	if method == http.MethodGet {
		lo := client.ListOptions{All: opts.Paginate, Query: query}
		if opts.Paginate {
			if v := query.Get("itemsPerPage"); v == "" {
				lo.ItemsPerPage = client.MaxItemsPerPage
			}
			return printer.List(c.Pages(ctx, path, lo), true, output.TableDef{})
		}
	}
	var payload any
	if body != nil {
		payload = body
	}
	res, err := c.Do(ctx, method, path, query, payload)
	if err != nil {
		return err
	}
	if opts.Include {
		if err := writeHead(opts.IO.Out, res.StatusCode, res.Header); err != nil {
			return err
		}
	}
	if len(res.Body) == 0 {
		return nil
	}
	return printer.Resource(res.Body, output.TableDef{})
}

// expandPath fills {project_id} and {org_id} and splits off a query.
func expandPath(opts *Options) (string, url.Values, error) {
	path := opts.Path
	for placeholder, get := range map[string]func() (string, error){"{project_id}": opts.ProjectID, "{org_id}": opts.OrgID} {
		if strings.Contains(path, placeholder) {
			id, err := get()
			if err != nil {
				return "", nil, err
			}
			path = strings.ReplaceAll(path, placeholder, id)
		}
	}
	path, rawQuery, _ := strings.Cut(path, "?")
	query, err := url.ParseQuery(rawQuery)
	if err != nil {
		return "", nil, cmdutil.FlagErrorf("invalid query in PATH: %v", err)
	}
	return path, query, nil
}
