package apikeys

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// MaxDescLength is the longest description the API takes.
const MaxDescLength = api.MaxAPIKeyDescription

// KeyRoles are the roles a key created in a project can be given.
var KeyRoles = api.ProjectRoles

// CreateOptions are the inputs of `apikeys create`.
type CreateOptions struct {
	cmdutil.Deps

	Desc  string
	Roles []string
}

// NewCmdCreate builds `apikeys create`.
func NewCmdCreate(f *cmdutil.Factory, runF func(context.Context, *CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "create --desc TEXT --role ROLE ...",
		Short: "Create an organization API key assigned to a project",
		Long: `Create an organization API key and assign it to the project
(POST /groups/{project_id}/apiKeys). The answer is the only place the private
key is ever shown whole: store it at once.

Roles: ` + strings.Join(KeyRoles, ", "),
		Example: `  omctl apikeys create --desc "CI backup job" --role GROUP_BACKUP_ADMIN
  omctl apikeys create --desc "read-only dashboards" --role GROUP_READ_ONLY -o json --jq .privateKey`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return createRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Desc, "desc", "", fmt.Sprintf("description, 1 to %d characters", MaxDescLength))
	cmd.Flags().StringSliceVar(&opts.Roles, "role", nil, "role of the key (repeatable or comma-separated)")
	_ = cmd.MarkFlagRequired("desc")
	_ = cmd.MarkFlagRequired("role")
	_ = cmd.RegisterFlagCompletionFunc("role", cmdutil.CompleteValues(KeyRoles...))
	return cmd
}

func createRun(ctx context.Context, opts *CreateOptions) error {
	// The server's own rules (internal/rules), told in flags.
	if err := rules.CheckAPIKeyDesc(opts.Desc); err != nil {
		return cmdutil.FlagErrorf("invalid --desc: %d characters, want 1 to %d", utf8.RuneCountInString(opts.Desc), MaxDescLength)
	}
	valid, invalid := rules.SplitAPIKeyRoles(opts.Roles)
	if len(invalid) > 0 {
		return cmdutil.FlagErrorf("invalid --role %q: valid roles are %s", invalid[0], strings.Join(KeyRoles, ", "))
	}
	if len(valid) == 0 {
		return cmdutil.FlagErrorf("give at least one --role: %s", strings.Join(KeyRoles, ", "))
	}
	var roles []string // each once: --role X,X means X
	for _, r := range valid {
		if !slices.Contains(roles, r) {
			roles = append(roles, r)
		}
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, projectID, c := r.Printer, r.ProjectID, r.Client
	res, err := c.Send(ctx, api.CreateAPIKey.Method, api.CreateAPIKey.Path(projectID),
		api.APIKeyCreateRequest{Desc: opts.Desc, Roles: roles})
	if err != nil {
		return err
	}
	var key api.APIKey
	if json.Unmarshal(c.Content(res), &key) == nil && key.PrivateKey != "" {
		fmt.Fprintf(opts.IO.ErrOut, "Warning: store the private key of %s now; it is shown only once.\n", key.PublicKey)
	}
	return printer.Resource(res, Table)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
