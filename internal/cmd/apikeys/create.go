package apikeys

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/output"
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
	// SaveProfile names a new profile to write the key to.
	SaveProfile string
	// ConfigPath is where profiles are saved (config.Path).
	ConfigPath func() (string, error)
	// Connection is how this run reaches the server the key is for (base
	// URL, CA certificate, insecure), written to the saved profile.
	Connection func() (config.Profile, error)
	DryRun     bool
}

// NewCmdCreate builds `apikeys create`.
func NewCmdCreate(f *cmdutil.Factory, runF func(context.Context, *CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{Deps: cmdutil.NewDeps(f), ConfigPath: config.Path, Connection: func() (config.Profile, error) {
		s, err := f.Settings()
		if err != nil {
			return config.Profile{}, err
		}
		conn := config.Profile{BaseURL: s.BaseURL, CACert: s.CACert, Insecure: s.Insecure}
		if conn.CACert != "" {
			// The profile is used from other directories.
			if abs, err := filepath.Abs(conn.CACert); err == nil {
				conn.CACert = abs
			}
		}
		return conn, nil
	}}
	cmd := &cobra.Command{
		Use:   "create --desc TEXT --role ROLE ...",
		Short: "Create an organization API key assigned to a project",
		Long: `Create an organization API key and assign it to the project
(POST /groups/{project_id}/apiKeys). The answer is the only place the private
key is ever shown whole: store it at once. With -o table the new key is
shown as fields, one a line, never cut to fit the terminal; -o json, jsonl
and yaml print the answer whole.

--save-profile NAME writes a new profile holding the key (its base URL, CA
certificate and insecure setting, public and private key, project and
organization), so the private key never needs
to be copied by hand; NAME must not be a profile already. --dry-run prints
the POST and sends nothing (and saves no profile).

Roles: ` + strings.Join(KeyRoles, ", "),
		Example: `  omctl apikeys create --desc "CI backup job" --role GROUP_BACKUP_ADMIN
  omctl apikeys create --desc "read-only dashboards" --role GROUP_READ_ONLY --save-profile dashboards
  omctl apikeys create --desc "CI reader" --role GROUP_READ_ONLY -o json --jq .privateKey`,
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
	cmd.Flags().StringVar(&opts.SaveProfile, "save-profile", "", "write the new key to a new profile `NAME` of the config file")
	cmdutil.AddDryRunFlag(cmd, &opts.DryRun)
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
	var save *profileSaver
	if opts.SaveProfile != "" {
		// Checked before the key is created: a key made and then not
		// saved would be shown once and be easy to lose.
		var err error
		if save, err = newProfileSaver(opts); err != nil {
			return err
		}
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, projectID, c := r.Printer, r.ProjectID, r.Client
	body := api.APIKeyCreateRequest{Desc: opts.Desc, Roles: roles}
	if opts.DryRun {
		w := cmdutil.Write{Method: api.CreateAPIKey.Method, Path: api.CreateAPIKey.Path(projectID), Body: body, After: body}
		return w.Preview(opts.IO.Out, printer.Format())
	}
	res, err := c.Send(ctx, api.CreateAPIKey.Method, api.CreateAPIKey.Path(projectID), body)
	if err != nil {
		return err
	}
	var key api.APIKey
	if err := cmdutil.DecodeAnswer(c.Content(res), "an API key", &key); err != nil {
		return err
	}
	if err := printer.OneTime(res, Details); err != nil {
		return err
	}
	if save == nil {
		if key.PrivateKey != "" {
			fmt.Fprintf(opts.IO.ErrOut, "Warning: store the private key of %s now; it is shown only once.\n", key.PublicKey)
		}
		return nil
	}
	where, err := save.save(key, projectID)
	if err != nil {
		return fmt.Errorf("the key %s is created but could not be saved to profile %q (%w): store the private key shown above now; it is shown only once", key.PublicKey, opts.SaveProfile, err)
	}
	fmt.Fprintf(opts.IO.ErrOut, "Saved the key %s to profile %q in %s, its private key %s; use it with -P %s.\n", key.PublicKey, opts.SaveProfile, save.path, where, opts.SaveProfile)
	return nil
}

// Details shows a new key one field a line, its private key whole.
var Details = output.Details("an API key", func(k api.APIKey) []output.Field {
	roles := make([]string, len(k.Roles))
	for i, r := range k.Roles {
		roles[i] = r.RoleName
	}
	return []output.Field{{Name: "ID", Value: k.ID}, {Name: "Description", Value: k.Desc},
		{Name: "Public key", Value: k.PublicKey}, {Name: "Private key", Value: k.PrivateKey},
		{Name: "Roles", Value: strings.Join(roles, ", ")}}
})

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
