package backupconfigs

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const (
	project = "5e2b0c2e8f9d4b0012345678"
	cluster = "5e3c0c2e8f9d4b0012345678"
	// assignedJSON answers an assignment of shard0 and shard1.
	assignedJSON = `{"clusterId":"5e3c0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","statusName":"STARTED","storageEngineName":"WIRED_TIGER","encryptionEnabled":false,"sslEnabled":true,"multiRegionBackupEnabled":true,"multiRegionMisconfigured":false,"deploymentConfigs":[{"rsId":"shard0","deploymentId":"us-east"},{"rsId":"shard1","deploymentId":"eu-west"}]}`
	bcJSON       = `{"clusterId":"5e3c0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","statusName":"STARTED","storageEngineName":"WIRED_TIGER","encryptionEnabled":false,"sslEnabled":true,"multiRegionBackupEnabled":true,"multiRegionMisconfigured":false,"availableMembers":["db1:27017","db2:27017"]}`
)

func TestDescribeWithAndWithoutMembers(t *testing.T) {
	for _, members := range []bool{false, true} {
		srv := stubapi.New(t)
		path := "/groups/" + project + "/backupConfigs/" + cluster
		if members {
			path += "/availableMembers"
		}
		srv.Reply("GET", path, 200, bcJSON)
		ios, _, out, _ := iostreams.Test()
		err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", project), ClusterID: cluster, Members: members})
		if err != nil {
			t.Fatalf("members=%v: %v", members, err)
		}
		if want := cluster + "\tSTARTED\tWIRED_TIGER\tfalse\ttrue\tfalse\tdb1:27017,db2:27017\n"; out.String() != want {
			t.Errorf("output = %q", out.String())
		}
	}
}

func TestAssignRegionsBody(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PATCH", "/groups/"+project+"/backupConfigs/"+cluster, 200, assignedJSON)
	ios, _, _, _ := iostreams.Test()
	err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: srv.Deps(ios, "json", project), ClusterID: cluster, Regions: []string{"shard0=us-east", "shard1=eu-west"}, MultiRegion: true})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"multiRegionBackupEnabled":true,"deploymentConfigs":[{"rsId":"shard0","deploymentId":"us-east"},{"rsId":"shard1","deploymentId":"eu-west"}]}`
	if got := string(srv.Only().Body); got != want {
		t.Errorf("body = %s", got)
	}
}

func TestAssignRegionsRejectsBadInput(t *testing.T) {
	for _, tc := range []struct {
		cluster string
		regions []string
		want    string
	}{
		{cluster, []string{"shard0"}, "RS_ID=DEPLOYMENT_ID"},
		{cluster, []string{"=us-east"}, "both non-empty"},
		{cluster, []string{"s=a", "s=b"}, "twice"},
		{cluster, nil, "at least one --region"},
		{"cluster0", []string{"s=a"}, "24 hexadecimal"},
	} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: srv.Deps(ios, "json", project), ClusterID: tc.cluster, Regions: tc.regions})
		if err == nil || !strings.Contains(err.Error(), tc.want) || len(srv.Requests()) != 0 {
			t.Errorf("%v: err = %v", tc.regions, err)
		}
	}
}
