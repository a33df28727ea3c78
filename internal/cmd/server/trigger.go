package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/alerts"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// TriggerOptions are the inputs of `omctl server trigger`.
type TriggerOptions struct {
	cmdutil.Deps

	Event   string
	Resolve bool
	Metric  string
	Value   string
	Units   string
	Target  map[string]*string
}

// targetFlags name the flags that describe a condition's target, by the
// target member each sets.
var targetFlags = []struct{ flag, member, help string }{
	{"host", "hostnameAndPort", "the host and port, e.g. db1.example.com:27017"},
	{"host-id", "hostId", "the host's id"},
	{"type-name", "typeName", "the host's type, e.g. PRIMARY"},
	{"replica-set", "replicaSetName", "the replica set's name"},
	{"cluster-id", "clusterId", "the cluster's id"},
	{"cluster-name", "clusterName", "the cluster's name"},
	{"shard", "shardName", "the shard's name"},
}

// NewCmdTrigger builds `omctl server trigger`.
func NewCmdTrigger(f *cmdutil.Factory, runF func(context.Context, *TriggerOptions) error) *cobra.Command {
	opts := &TriggerOptions{Deps: cmdutil.NewDeps(f), Target: map[string]*string{}}
	cmd := &cobra.Command{
		Use:   "trigger [EVENT] [--host HOST:PORT ...] [--resolve] | --metric NAME --value N",
		Short: "Report a condition to a running server's alert engine",
		Long: `Report to a running omctl server (the profile's) that an event holds, or has
cleared with --resolve, for a target in the project; or report a metric sample
with --metric and --value. The engine raises, updates or closes the alerts of
every enabled alert configuration that applies, and prints them. Without a
target flag the condition is the project's own: its alerts name no host,
replica set or cluster. Only omctl server has this control; another server
(the real service) is said not to be omctl server.
docs/server.md explains the engine.`,
		Example: `  omctl server trigger HOST_DOWN --host db1.example.com:27017
  omctl server trigger HOST_DOWN --host db1.example.com:27017 --resolve
  omctl server trigger --metric CONNECTIONS --value 150 --host db1.example.com:27017`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Event = args[0]
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return triggerRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.Resolve, "resolve", false, "the condition has cleared")
	fl.StringVar(&opts.Metric, "metric", "", "report a sample of this metric, e.g. CONNECTIONS")
	fl.StringVar(&opts.Value, "value", "", "the sample's value (with --metric)")
	fl.StringVar(&opts.Units, "units", "", "the sample's units (default: the threshold's)")
	for _, t := range targetFlags {
		opts.Target[t.member] = fl.String(t.flag, "", t.help)
	}
	_ = cmd.RegisterFlagCompletionFunc("metric", cmdutil.CompleteValues(api.MetricNames...))
	cmd.ValidArgsFunction = cmdutil.CompleteValues(api.NamedEventTypes...)
	return cmd
}

func triggerRun(ctx context.Context, opts *TriggerOptions) error {
	body := map[string]any{}
	switch {
	case opts.Metric != "" && opts.Event != "":
		return cmdutil.FlagErrorf("give an EVENT or --metric, not both")
	case opts.Metric != "":
		if opts.Resolve {
			return cmdutil.FlagErrorf("--resolve does not go with --metric: a sample clears its condition by its value")
		}
		if !api.OneOf(opts.Metric, api.MetricNames) {
			return cmdutil.FlagErrorf("invalid --metric %q: valid values are %s", opts.Metric, strings.Join(api.MetricNames, ", "))
		}
		if _, err := strconv.ParseFloat(opts.Value, 64); err != nil || opts.Value == "" {
			return cmdutil.FlagErrorf("invalid --value %q: want a number such as 150 or 0.5", opts.Value)
		}
		body["metricName"], body["value"] = opts.Metric, json.Number(opts.Value)
		if opts.Units != "" {
			body["units"] = opts.Units
		}
	case opts.Event != "":
		if opts.Value != "" || opts.Units != "" {
			return cmdutil.FlagErrorf("--value and --units go with --metric")
		}
		if !api.OneOf(opts.Event, api.NamedEventTypes) {
			return cmdutil.FlagErrorf("unknown event type %q: valid event types are %s", opts.Event, strings.Join(api.NamedEventTypes, ", "))
		}
		body["eventTypeName"] = opts.Event
		if opts.Resolve {
			body["resolved"] = true
		}
	default:
		return cmdutil.FlagErrorf("give an EVENT (such as HOST_DOWN) or --metric and --value")
	}
	project, err := opts.ProjectID()
	if err != nil {
		return err
	}
	body["groupId"] = project
	target := map[string]string{}
	for member, v := range opts.Target {
		if *v != "" {
			target[member] = *v
		}
	}
	if len(target) > 0 {
		body["target"] = target
	}
	printer, err := opts.Printer()
	if err != nil {
		return err
	}
	res, err := control(ctx, opts.Deps, api.ReportEvents, body)
	if err != nil {
		return err
	}
	if len(target) == 0 {
		// An alert with an empty target would look like a mistake.
		fmt.Fprintf(opts.IO.ErrOut, "No target given (--host, --replica-set, --cluster-id, ...): the condition was reported for project %s itself, so its alerts name no host, replica set or cluster.\n", project)
	}
	return printer.List(onePage(res, "alerts"), output.PageAsked, alerts.Table)
}
