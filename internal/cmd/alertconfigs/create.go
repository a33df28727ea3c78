package alertconfigs

import (
	"context"
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// CreateOptions are the inputs of `alertconfigs create`.
type CreateOptions struct {
	cmdutil.Deps

	File   string
	DryRun bool
}

// NewCmdCreate builds `alertconfigs create`.
func NewCmdCreate(f *cmdutil.Factory, runF func(context.Context, *CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "create --file FILE|-",
		Short: "Create an alert configuration",
		Long: `Create an alert configuration in the project from the JSON of FILE, or of
standard input with --file - (POST /groups/{project_id}/alertConfigs).

eventTypeName and notifications are required; a configuration sent without
"enabled" is created DISABLED. The server chooses the new configuration's id,
so FILE must not hold one; a groupId, if any, must be the project's. links,
created and updated are ignored. --dry-run prints the POST and the
configuration it would create, and sends nothing.

Secrets (webhookSecret, webhookUrl, integration keys and tokens) may be given
as a reference, ${env:NAME} or ${file:PATH}, read when the body is sent. The
server shows secrets redacted, so another configuration's JSON holds no real
secret: a body whose secret is redacted is refused, each field named, and
nothing is sent. To copy configurations, use omctl export --secret-refs and
omctl apply (docs/apply.md, Secrets).`,
		Example: `  # hostdown.json: "notifications": [{"typeName": "WEBHOOK",
  #   "webhookUrl": "${env:HOOK_URL}", "webhookSecret": "${file:/run/secrets/hook}"}]
  omctl alertconfigs create --file hostdown.json   # HOOK_URL set by the CI's secret store`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return createRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "JSON file of the configuration, - for standard input")
	_ = cmd.MarkFlagRequired("file")
	cmdutil.AddDryRunFlag(cmd, &opts.DryRun)
	return cmd
}

func createRun(ctx context.Context, opts *CreateOptions) error {
	raw, fields, err := readConfigFile(opts.IO, opts.File)
	if err != nil {
		return err
	}
	if _, ok := fields["id"]; ok {
		return cmdutil.FlagErrorf(`%s: remove "id": the server chooses the id of a new alert configuration (jq 'del(.id)')`, opts.File)
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject)
	if err != nil {
		return err
	}
	printer, projectID := r.Printer, r.ProjectID
	if g, ok := fields["groupId"]; ok {
		var group string
		if json.Unmarshal(g, &group) != nil || group != projectID {
			return cmdutil.FlagErrorf(`%s: groupId %s is not the project %s: remove it, or give --project`, opts.File, g, projectID)
		}
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	if opts.DryRun {
		w := cmdutil.Write{Method: api.CreateAlertConfig.Method, Path: api.CreateAlertConfig.Path(projectID), Body: json.RawMessage(raw), After: json.RawMessage(raw)}
		return w.Preview(opts.IO.Out, printer.Format())
	}
	res, err := c.Send(ctx, api.CreateAlertConfig.Method, api.CreateAlertConfig.Path(projectID), json.RawMessage(raw))
	if err != nil {
		return err
	}
	var got struct {
		ID      string `json:"id"`
		Enabled *bool  `json:"enabled"`
	}
	if err := cmdutil.DecodeAnswer(c.Content(res), "an alert configuration", &got); err != nil {
		return err
	}
	msg := "Alert configuration " + got.ID + " created"
	if got.ID == "" {
		msg = "Alert configuration created; the answer does not show its id, so look for it with alertconfigs list"
	}
	if got.Enabled != nil {
		msg += " (" + enabledWord(*got.Enabled) + ")"
	}
	return printer.Confirm(res, Table, msg)
}
