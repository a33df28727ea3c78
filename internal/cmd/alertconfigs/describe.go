package alertconfigs

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// DescribeOptions are the inputs of `alertconfigs describe`.
type DescribeOptions struct {
	cmdutil.Deps

	ConfigID string
}

// NewCmdDescribe builds `alertconfigs describe`.
func NewCmdDescribe(f *cmdutil.Factory, runF func(context.Context, *DescribeOptions) error) *cobra.Command {
	opts := &DescribeOptions{Deps: cmdutil.NewDeps(f)}
	return &cobra.Command{
		Use:   "describe ALERT_CONFIG_ID",
		Short: "Show one alert configuration",
		Long: `Show one alert configuration of the project
(GET /groups/{project_id}/alertConfigs/{alert_config_id}): its event, matchers,
threshold and notification targets, secrets redacted as the server shows them.`,
		Example: `  omctl alertconfigs describe 5f2a0c2e8f9d4b0000000001
  omctl alertconfigs describe 5f2a0c2e8f9d4b0000000001 -o json > cfg.json`,
		Args:              cmdutil.ExactArgs(1, "ALERT_CONFIG_ID"),
		ValidArgsFunction: completeConfigIDs(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ConfigID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return describeRun(cmd.Context(), opts)
		},
	}
}

func describeRun(ctx context.Context, opts *DescribeOptions) error {
	if err := cmdutil.CheckID("alert config", opts.ConfigID); err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, projectID, c := r.Printer, r.ProjectID, r.Client
	body, err := c.Get(ctx, api.GetAlertConfig.Path(projectID, opts.ConfigID), nil)
	if err != nil {
		return err
	}
	return printer.Describe(body, Table, Detail.Of("id", opts.ConfigID))
}

// Detail is the terminal view of `alertconfigs describe`.
var Detail = output.Details("an alert configuration", func(c api.AlertConfig) []output.Field {
	matchers := make([]string, len(c.Matchers))
	for i, m := range c.Matchers {
		matchers[i] = fmt.Sprintf("%s %s %s", m.FieldName, m.Operator, m.Value)
	}
	threshold := ""
	if t := c.MetricThreshold; t != nil {
		threshold = joinWords(t.MetricName, t.Operator, number(t.Threshold), t.Units)
	} else if t := c.Threshold; t != nil {
		threshold = joinWords(t.Operator, number(t.Threshold), t.Units)
	}
	notes := make([]string, len(c.Notifications))
	for i, n := range c.Notifications {
		notes[i] = describeNotification(n)
	}
	return []output.Field{
		{Name: "ID", Value: c.ID},
		{Name: "Event", Value: c.EventTypeName},
		{Name: "Enabled", Value: strconv.FormatBool(c.Enabled)},
		{Name: "Matchers", Value: strings.Join(matchers, "\n")},
		{Name: "Threshold", Value: threshold},
		{Name: "Notifications", Value: strings.Join(notes, "\n")},
		{Name: "Project", Value: c.GroupID},
		{Name: "Created", Value: c.Created},
		{Name: "Updated", Value: c.Updated},
		{Name: "Tags", Value: strings.Join(c.Tags, "\n")},
	}
})

// describeNotification shows a target as its kind, where it goes (as the
// server shows it, redacted) and its timing.
func describeNotification(n map[string]any) string {
	kind, _ := n["typeName"].(string)
	var where []string
	for _, k := range []string{"emailAddress", "mobileNumber", "username", "teamName", "channelName", "roomName", "webhookUrl"} {
		if v, ok := n[k].(string); ok && v != "" {
			where = append(where, v)
		}
	}
	s := kind
	if len(where) > 0 {
		s += " " + strings.Join(where, " ")
	}
	if d, ok := n["delayMin"].(float64); ok && d > 0 {
		s += fmt.Sprintf(" after %gm", d)
	}
	if i, ok := n["intervalMin"].(float64); ok && i > 0 {
		s += fmt.Sprintf(" every %gm", i)
	}
	return s
}

func number(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

// joinWords joins the words that are not empty.
func joinWords(words ...string) string {
	var kept []string
	for _, w := range words {
		if w != "" {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}
