package snapshots

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/prompt"
)

// ExpireOptions are the inputs of `snapshots expire`.
type ExpireOptions struct {
	cmdutil.Deps
	Now func() time.Time

	SnapshotID  string
	ClusterID   string
	Expires     string
	DoNotDelete bool
	DryRun      bool
}

// NewCmdExpire builds `snapshots expire`.
func NewCmdExpire(f *cmdutil.Factory, runF func(context.Context, *ExpireOptions) error) *cobra.Command {
	opts := &ExpireOptions{Deps: cmdutil.NewDeps(f), Now: f.Now}
	cmd := &cobra.Command{
		Use:   "expire SNAPSHOT_ID --cluster CLUSTER_ID (--expires TIME | --do-not-delete)",
		Short: "Change when a snapshot expires, or keep it for good",
		Long: `Change when a cluster snapshot may be deleted, or mark it do-not-delete, which
removes its expiry (PATCH /groups/{project_id}/clusters/{cluster_id}/snapshots/{snapshot_id}).

TIME is RFC 3339, a date, or a duration from now (30d), and must be in the
future: once a snapshot's expiry has passed, the server refuses any new
--expires, and only --do-not-delete can still keep the snapshot.

To undo --do-not-delete, give the snapshot an expiry again with --expires.
omctl reports the expiry the server's answer shows, and fails if the answer
does not show the change. --dry-run prints the PATCH and the snapshot's
diff, and sends nothing.

Without SNAPSHOT_ID, at a terminal, omctl offers the cluster's snapshots to
choose from; elsewhere it is a usage error.`,
		Example: `  omctl snapshots expire 5f3c0c2e8f9d4b000000019c --cluster 5e3c0c2e8f9d4b0012340001 --expires 30d
  omctl snapshots expire 5f3c0c2e8f9d4b000000019c --cluster 5e3c0c2e8f9d4b0012340001 --do-not-delete`,
		Args: cmdutil.RangeArgs(0, 1, "SNAPSHOT_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.SnapshotID = args[0]
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return expireRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.ClusterID, "cluster", "", "cluster ID (24 hex digits)")
	cmd.Flags().StringVar(&opts.Expires, "expires", "", "new expiry (RFC 3339, date or duration from now)")
	cmd.Flags().BoolVar(&opts.DoNotDelete, "do-not-delete", false, "keep the snapshot until this is undone; removes its expiry")
	_ = cmd.MarkFlagRequired("cluster")
	cmd.MarkFlagsMutuallyExclusive("expires", "do-not-delete")
	cmd.MarkFlagsOneRequired("expires", "do-not-delete")
	cmdutil.AddDryRunFlag(cmd, &opts.DryRun)
	return cmd
}

func expireRun(ctx context.Context, opts *ExpireOptions) error {
	var picker prompt.Prompter
	if opts.SnapshotID == "" {
		var ok bool
		if picker, ok = opts.Picker(); !ok {
			return cmdutil.FlagErrorf("missing SNAPSHOT_ID: usage: omctl snapshots expire SNAPSHOT_ID --cluster CLUSTER_ID (--expires TIME | --do-not-delete)")
		}
	} else if err := cmdutil.CheckID("snapshot", opts.SnapshotID); err != nil {
		return err
	}
	if opts.ClusterID == "" {
		return cmdutil.FlagErrorf("--cluster CLUSTER_ID is required")
	}
	if err := cmdutil.CheckID("cluster", opts.ClusterID); err != nil {
		return err
	}
	switch {
	case opts.DoNotDelete && opts.Expires != "":
		return cmdutil.FlagErrorf("--expires and --do-not-delete cannot be used together: do-not-delete removes the expiry")
	case !opts.DoNotDelete && opts.Expires == "":
		return cmdutil.FlagErrorf("give --expires TIME or --do-not-delete")
	case opts.Expires != "":
		if err := cmdutil.CheckTime(opts.Expires); err != nil {
			return cmdutil.FlagErrorf("invalid --expires: %v", err)
		}
	}
	// The client before the time: --expires 30d and the future check
	// count from the server's clock, which the client learns (Factory.Now).
	r, at, err := source{ClusterID: opts.ClusterID}.resolve(opts.Deps)
	if err != nil {
		return err
	}
	var body api.SnapshotExpiryRequest
	if opts.DoNotDelete {
		t := true
		body.DoNotDelete = &t
	} else {
		now := opts.Now()
		t, _ := cmdutil.ParseTime(opts.Expires, now)
		if !t.After(now) {
			return cmdutil.FlagErrorf("invalid --expires %q: %s is not in the future (the server's time is %s); an expired snapshot's expiry can no longer be changed (use --do-not-delete to keep it)", opts.Expires, cmdutil.FormatTime(t), cmdutil.FormatTime(now))
		}
		s := cmdutil.FormatTime(t)
		f := false
		body.Expires, body.DoNotDelete = &s, &f
	}
	printer, c := r.Printer, r.Client
	if opts.SnapshotID == "" {
		if opts.SnapshotID, err = pickSnapshot(ctx, at, c, picker, opts.IO, opts.Now(), opts.DoNotDelete); err != nil || opts.SnapshotID == "" {
			return err
		}
	}
	path := api.ExpireSnapshot.Path(at.project, at.ClusterID, opts.SnapshotID)
	if opts.DryRun {
		before, err := cmdutil.Current(ctx, c, api.GetSnapshot.Path(at.project, at.ClusterID, opts.SnapshotID), false)
		if err != nil {
			return err
		}
		after, err := cmdutil.Object(before, "a snapshot")
		if err != nil {
			return err
		}
		after["doNotDelete"] = *body.DoNotDelete
		delete(after, "expires")
		if body.Expires != nil {
			after["expires"] = *body.Expires
		}
		w := cmdutil.Write{Method: api.ExpireSnapshot.Method, Path: path, Body: body, Before: before, After: after}
		return w.Preview(opts.IO.Out, printer.Format())
	}
	res, err := c.Send(ctx, api.ExpireSnapshot.Method, path, body)
	if err != nil {
		return err
	}
	var got shownExpiry
	if err := cmdutil.DecodeAnswer(c.Content(res), "a snapshot", &got); err != nil {
		return err
	}
	msg, err := got.confirm(opts.SnapshotID, body)
	if err != nil {
		return err
	}
	return printer.Confirm(res, Table, msg)
}

// shownExpiry is what an answer shows of a snapshot's expiry: nil for a
// field it leaves out.
type shownExpiry struct {
	DoNotDelete *bool   `json:"doNotDelete"`
	Expires     *string `json:"expires"`
}

// confirm says what the server's answer shows of the change asked for,
// and fails when it shows another: do-not-delete not set, or another
// expiry (the same instant, however written, is the same). A field the
// answer leaves out confirms nothing and denies nothing: the 2xx is then
// the server's word.
func (got shownExpiry) confirm(id string, body api.SnapshotExpiryRequest) (string, error) {
	if *body.DoNotDelete {
		switch {
		case got.DoNotDelete == nil:
			return fmt.Sprintf("Snapshot %s set not to be deleted%s", id, cmdutil.NotShown([]string{"doNotDelete"})), nil
		case !*got.DoNotDelete:
			return "", cmdutil.ErrNotApplied("snapshot "+id, []string{"doNotDelete"})
		}
		return fmt.Sprintf("Snapshot %s will not be deleted", id), nil
	}
	want, _ := time.Parse(time.RFC3339, *body.Expires)
	switch {
	case got.DoNotDelete != nil && *got.DoNotDelete:
		// Kept for good, whatever was asked: no expiry applies.
		return "", cmdutil.ErrNotApplied("snapshot "+id, []string{"expires"})
	case got.Expires == nil && got.DoNotDelete != nil:
		// The API removes expires only when doNotDelete is true.
		return "", cmdutil.ErrNotApplied("snapshot "+id, []string{"expires"})
	case got.Expires == nil:
		return fmt.Sprintf("Snapshot %s set to expire at %s%s", id, *body.Expires, cmdutil.NotShown([]string{"expires"})), nil
	}
	if shown, err := time.Parse(time.RFC3339, *got.Expires); err != nil || !want.Equal(shown) {
		return "", cmdutil.ErrNotApplied("snapshot "+id, []string{"expires"})
	}
	return fmt.Sprintf("Snapshot %s expires at %s", id, *got.Expires), nil
}
