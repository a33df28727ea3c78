package alertconfigs

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

// UpdateOptions are the inputs of `alertconfigs update`.
type UpdateOptions struct {
	cmdutil.Deps

	ConfigID string
	File     string
	DryRun   bool
}

// NewCmdUpdate builds `alertconfigs update`.
func NewCmdUpdate(f *cmdutil.Factory, runF func(context.Context, *UpdateOptions) error) *cobra.Command {
	opts := &UpdateOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "update ALERT_CONFIG_ID --file FILE|-",
		Short: "Replace an alert configuration",
		Long: `Replace an alert configuration with the JSON of FILE, or of standard input
with --file - (PUT /groups/{project_id}/alertConfigs/{alert_config_id}).

This is a full replacement: fields left out are dropped, and a configuration
sent without "enabled" becomes DISABLED. eventTypeName and notifications are
required. --dry-run prints the PUT and its diff against the configuration,
and sends nothing.

The server shows secrets redacted, so a configuration read back holds none:
a body whose secret (webhookSecret, webhookUrl, an integration key or token)
is still redacted is refused, each field named, and nothing is sent. Give
each secret as the real value or as a reference, ${env:NAME} or
${file:PATH}, read when the body is sent (docs/apply.md, Secrets).`,
		Example: `  omctl alertconfigs describe 5f2a0c2e8f9d4b0000000001 -o json > cfg.json
  # edit cfg.json: "webhookSecret": "${file:/run/secrets/hook}" in place of "******"
  omctl alertconfigs update 5f2a0c2e8f9d4b0000000001 --file cfg.json
  jq '.enabled = true' cfg.json | omctl alertconfigs update 5f2a0c2e8f9d4b0000000001 --file -`,
		Args:              cmdutil.ExactArgs(1, "ALERT_CONFIG_ID"),
		ValidArgsFunction: completeConfigIDs(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ConfigID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return updateRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "JSON file of the new configuration, - for standard input")
	_ = cmd.MarkFlagRequired("file")
	cmdutil.AddDryRunFlag(cmd, &opts.DryRun)
	return cmd
}

func updateRun(ctx context.Context, opts *UpdateOptions) error {
	if err := cmdutil.CheckID("alert config", opts.ConfigID); err != nil {
		return err
	}
	raw, _, err := readConfigFile(opts.IO, opts.File)
	if err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, projectID, c := r.Printer, r.ProjectID, r.Client
	if opts.DryRun {
		before, err := cmdutil.Current(ctx, c, api.GetAlertConfig.Path(projectID, opts.ConfigID), false)
		if err != nil {
			return err
		}
		w := cmdutil.Write{Method: api.PutAlertConfig.Method, Path: api.PutAlertConfig.Path(projectID, opts.ConfigID), Body: json.RawMessage(raw), Before: before, After: json.RawMessage(raw)}
		return w.Preview(opts.IO.Out, printer.Format())
	}
	res, err := c.Send(ctx, api.PutAlertConfig.Method, api.PutAlertConfig.Path(projectID, opts.ConfigID), json.RawMessage(raw))
	if err != nil {
		return err
	}
	return printer.Confirm(res, Table, fmt.Sprintf("Alert configuration %s replaced", opts.ConfigID))
}

// readConfigFile reads the configuration of --file and checks what the API
// requires of a body (eventTypeName, notifications), warning when it has
// no "enabled" field. It returns the file as is and its fields.
func readConfigFile(ios *iostreams.IOStreams, file string) ([]byte, map[string]json.RawMessage, error) {
	raw, err := cmdutil.ReadBodyInput(ios, "--file", file)
	if err != nil {
		return nil, nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, nil, cmdutil.FlagErrorf("%s: an alert configuration must be a JSON object: %s", file, cmdutil.DescribeJSONError(err))
	}
	var cfg api.AlertConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, nil, cmdutil.FlagErrorf("%s: %s", file, cmdutil.DescribeJSONError(err))
	}
	if cfg.EventTypeName == "" {
		return nil, nil, cmdutil.FlagErrorf("%s: eventTypeName is required", file)
	}
	if _, ok := fields["notifications"]; !ok {
		return nil, nil, cmdutil.FlagErrorf("%s: notifications is required (an array of notification targets)", file)
	}
	if _, ok := fields["enabled"]; !ok {
		fmt.Fprintln(ios.ErrOut, `Warning: the configuration has no "enabled" field; the server will store it DISABLED.`)
	}
	return raw, fields, nil
}
