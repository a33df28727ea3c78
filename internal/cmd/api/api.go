// Package api implements `omctl api`: an authenticated call to any path of
// the API, for what no command covers yet (like `gh api`).
package api

import (
	"context"
	"iter"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	endpoints "github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// Options are the inputs of `omctl api`.
type Options struct {
	cmdutil.Deps

	Method   string
	Path     string
	Input    string
	Paginate bool
	// MethodSet says -X was given; without it, fields make the request a POST.
	MethodSet bool
	Fields    Fields
	Include   bool
	Headers   []string
	Parallel  int
}

// NewCmdAPI builds `omctl api`.
func NewCmdAPI(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Deps: cmdutil.NewDeps(f)}
	// The answer of any endpoint has no table shape: it prints as JSON.
	opts.Printer = f.JSONPrinter
	cmd := &cobra.Command{
		Use:   "api [-X METHOD] PATH [--input FILE|-] [-f|-F key=value]... [-i] [--paginate]",
		Short: "Make an authenticated API request",
		Long: `Make an authenticated request to PATH, relative to the base URL
(/api/public/v1.0), and print the JSON answer. PATH may also be a full URL of
the same server, as the API gives in links[].href. -o table does not apply:
the answer prints as JSON.

{project_id} and {org_id} in PATH are replaced by --project and --org (or the
profile's). With --paginate, a GET of a list fetches every page (500 items a
request unless PATH sets itemsPerPage, --parallel at a time) and prints one
merged list, or one item a line with -o jsonl; a GET of a single resource
prints that resource.

-f key=value adds a string field, -F key=value a typed one (true, false, null
and numbers as JSON, @FILE for a file's content). Fields go in the query of a
GET and in a JSON object body otherwise; with fields and no -X the method is
POST. -i prints the answer's status line and headers first.`,
		Example: `  omctl api /groups/{project_id}/alerts --paginate --jq '.results | length'
  omctl api -X PATCH /groups/{project_id}/alertConfigs/5f2a0c2e8f9d4b0000000001 --input - <<< '{"enabled":false}'
  omctl api /admin/backup/oplog/s3Configs/oplog-east-1
  omctl api -X PATCH /groups/{project_id}/alertConfigs/5f2a0c2e8f9d4b0000000001 -F enabled=false
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
	cmd.Flags().StringArrayVarP(&opts.Headers, "header", "H", nil, "add a request header, `KEY:VALUE` (repeatable)")
	cmd.MarkFlagsMutuallyExclusive("input", "raw-field")
	cmd.MarkFlagsMutuallyExclusive("input", "field")
	cmdutil.AddParallelFlag(cmd, &opts.Parallel)
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
	if opts.Paginate {
		if err := cmdutil.CheckParallel(opts.Parallel); err != nil {
			return err
		}
	}
	headers, err := parseHeaders(opts.Headers)
	if err != nil {
		return err
	}
	ctx = client.WithHeaders(ctx, headers)
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
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, c := r.Printer, r.Client
	if path, err = fullURLPath(c, path); err != nil {
		return err
	}
	if opts.Paginate {
		lo, err := paginateOptions(query, opts.Parallel)
		if err != nil {
			return err
		}
		return printPaginated(printer, c.Pages(ctx, path, lo))
	}
	var payload any
	if body != nil {
		payload = body
		// Sent as given, but a redacted secret would be stored as the
		// secret: say so (docs/apply.md, Secrets).
		if _, known := endpoints.Lookup(method, path); known {
			cmdutil.WarnRedactedSecrets(opts.IO, body)
		}
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

// paginateOptions takes pageNum and itemsPerPage out of PATH's query
// (500 a page unless given), so the pages are counted from them.
func paginateOptions(query url.Values, parallel int) (client.ListOptions, error) {
	lo := client.ListOptions{PageNum: 1, ItemsPerPage: client.MaxItemsPerPage, All: true, Parallel: parallel, Query: query}
	for _, q := range []struct {
		name string
		dst  *int
		max  int
	}{{"pageNum", &lo.PageNum, math.MaxInt32}, {"itemsPerPage", &lo.ItemsPerPage, client.MaxItemsPerPage}} {
		v := query.Get(q.name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > q.max {
			return lo, cmdutil.FlagErrorf("invalid %s %q in PATH: want a whole number from 1 to %d", q.name, v, q.max)
		}
		*q.dst = n
		query.Del(q.name)
	}
	return lo, nil
}

// printPaginated prints every page as one list, or, when the first answer
// is not a list (no "results"), that answer as it is, as `gh api
// --paginate` does for a single resource.
func printPaginated(printer *output.Printer, pages iter.Seq2[*client.Page, error]) error {
	next, stop := iter.Pull2(pages)
	defer stop()
	first, err, ok := next()
	if !ok {
		return nil
	}
	if err != nil {
		return err
	}
	if !first.IsList {
		return printer.Resource(first.Body, output.TableDef{})
	}
	return printer.List(func(yield func(*client.Page, error) bool) {
		if !yield(first, nil) {
			return
		}
		for {
			p, err, ok := next()
			if !ok || !yield(p, err) {
				return
			}
		}
	}, output.AllPages, output.TableDef{})
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
