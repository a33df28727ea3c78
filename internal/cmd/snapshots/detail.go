package snapshots

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/output"
)

// Detail is the terminal view of `snapshots describe`: when it was taken,
// when it expires, and each part with its sizes.
var Detail = output.Details("a snapshot", func(s api.Snapshot) []output.Field {
	fields := []output.Field{
		{Name: "ID", Value: s.ID},
		{Name: "Cluster", Value: strings.TrimSpace(s.ClusterName + " " + s.ClusterID)},
		{Name: "Complete", Value: strconv.FormatBool(s.Complete)},
		{Name: "Created", Value: timestamp(s.Created)},
		{Name: "Expires", Value: s.Expires},
		{Name: "Do not delete", Value: strconv.FormatBool(s.DoNotDelete)},
		{Name: "Last oplog applied", Value: timestamp(s.LastOplogAppliedTimestamp)},
	}
	if s.IsPossiblyInconsistent != nil {
		fields = append(fields, output.Field{Name: "Possibly inconsistent", Value: strconv.FormatBool(*s.IsPossiblyInconsistent)})
	}
	if len(s.MissingShards) > 0 {
		fields = append(fields, output.Field{Name: "Missing shards", Value: strconv.Itoa(len(s.MissingShards))})
	}
	if nf := s.NamespaceFilterList; nf != nil && len(nf.FilterList) > 0 {
		fields = append(fields, output.Field{Name: "Namespaces", Value: strings.ToLower(nf.FilterType) + ": " + strings.Join(nf.FilterList, ", ")})
	}
	for i, p := range s.Parts {
		fields = append(fields, output.Field{Name: fmt.Sprintf("Part %d", i+1), Value: part(p)})
	}
	return fields
})

func timestamp(t *api.BSONTimestamp) string {
	if t == nil {
		return ""
	}
	return t.Date
}

// part sums up one part: what it is of, its state and its sizes.
func part(p api.SnapshotPart) string {
	what := p.ReplicaSetName
	if what == "" {
		what = p.HostID
	}
	lines := []string{strings.TrimSpace(strings.Join([]string{p.TypeName, what, p.ReplicaState}, " "))}
	var sizes []string
	for _, s := range []struct {
		name string
		n    int64
	}{{"data", p.DataSizeBytes}, {"storage", p.StorageSizeBytes}, {"file", p.FileSizeBytes}} {
		if s.n > 0 {
			sizes = append(sizes, s.name+" "+humanBytes(s.n))
		}
	}
	if len(sizes) > 0 {
		lines = append(lines, strings.Join(sizes, ", "))
	}
	if p.MongodVersion != "" || p.FCV != "" {
		lines = append(lines, strings.TrimSpace("version "+p.MongodVersion+" fcv "+p.FCV))
	}
	if p.CompletedTime != "" {
		lines = append(lines, "completed "+p.CompletedTime)
	}
	return strings.Join(lines, "\n")
}

// humanBytes writes a size in binary units: 1.5 GiB.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
