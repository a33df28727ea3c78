package alertconfigs

import (
	"context"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// SetEnabledOptions are the inputs of `alertconfigs enable|disable`.
type SetEnabledOptions struct {
	Client    func() (*client.Client, error)
	Printer   func() (*output.Printer, error)
	ProjectID func() (string, error)

	ConfigID string
	Enabled  bool
}

// NewCmdSetEnabled builds `alertconfigs enable` or `alertconfigs disable`.
func NewCmdSetEnabled(f *cmdutil.Factory, enabled bool, runF func(context.Context, *SetEnabledOptions) error) *cobra.Command {
	opts := &SetEnabledOptions{Client: f.Client, Printer: f.Printer, ProjectID: f.ProjectID, Enabled: enabled}
	verb := "disable"
	if enabled {
		verb = "enable"
	}
	return &cobra.Command{
		Use:               verb + " ALERT_CONFIG_ID",
		Short:             cmdutil.Title(verb) + " an alert configuration",
		Long:              cmdutil.Title(verb) + " an alert configuration, changing nothing else (PATCH /groups/{project_id}/alertConfigs/{alert_config_id}).",
		Example:           "  omctl alertconfigs " + verb + " 5f1a0c2e8f9d4b0012345678",
		Args:              cmdutil.ExactArgs(1, "ALERT_CONFIG_ID"),
		ValidArgsFunction: completeConfigIDs(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ConfigID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return setEnabledRun(cmd.Context(), opts)
		},
	}
}

func setEnabledRun(ctx context.Context, opts *SetEnabledOptions) error {
	if err := cmdutil.CheckID("alert config", opts.ConfigID); err != nil {
		return err
	}
	printer, err := opts.Printer()
	if err != nil {
		return err
	}
	projectID, err := opts.ProjectID()
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	res, err := c.Send(ctx, http.MethodPatch, configPath(projectID, opts.ConfigID), api.EnabledRequest{Enabled: opts.Enabled})
	if err != nil {
		return err
	}
	var got api.AlertConfig
	if err := cmdutil.DecodeAnswer(c.Content(res), "an alert configuration", &got); err != nil {
		return err
	}
	return printer.Confirm(res, Table, fmt.Sprintf("Alert configuration %s %s", opts.ConfigID, enabledWord(got.Enabled)))
}

func enabledWord(enabled bool) string {
	if enabled {
		return "enabled"
	}
	return "disabled"
}
