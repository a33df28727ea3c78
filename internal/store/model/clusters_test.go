package model

import (
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/store/fixture"
)

const (
	clusterListed  = "5e3c00000000000000000002"
	clusterFromCfg = "5e3c00000000000000000003"
	clusterSnap    = "5e3c00000000000000000001"
)

// clusterFixtures list one cluster and name two more: one by a backup
// configuration, one only by snapshots (listed in the opposite order).
var clusterFixtures = fixturesWith(
	`"clusters": [{"id": "`+clusterListed+`", "groupId": "`+testProject+`"}]`,
	`"backupConfigs": [{"groupId": "`+testProject+`", "clusterId": "`+clusterFromCfg+`", "statusName": "STARTED"}]`,
	`"snapshots": [
	  {"id": "5f3c00000000000000000001", "groupId": "`+testProject+`", "clusterId": "`+clusterSnap+`", "parts": [{"replicaSetName": "rs9", "typeName": "REPLICA_SET"}]},
	  {"id": "5f3c00000000000000000002", "groupId": "`+testProject+`", "clusterId": "`+clusterSnap+`", "clusterName": "named-late", "parts": []},
	  {"id": "5f3c00000000000000000003", "groupId": "`+testProject+`", "clusterId": "`+clusterFromCfg+`", "parts": [{"typeName": "CONFIG_SERVER_REPLICA_SET"}]},
	  {"id": "5f3c00000000000000000004", "groupId": "`+testProject+`", "clusterId": "`+clusterListed+`", "clusterName": "listed", "parts": [{"replicaSetName": "rsL"}]}]`)

func clusterSummary(st *State) string {
	var out []string
	for _, c := range st.Clusters(testProject).All() {
		out = append(out, c.ID[20:]+":"+str(c.m["typeName"])+":"+str(c.m["clusterName"])+":"+str(c.m["replicaSetName"]))
	}
	return strings.Join(out, " ")
}

func TestBadClustersAreRefused(t *testing.T) {
	cl := func(extra string) string {
		return `{"id": "` + clusterListed + `", "groupId": "` + testProject + `"` + extra + `}`
	}
	refusedFixtures(t, map[string]string{
		fixturesWith(`"clusters": [` + cl("") + `, ` + cl("") + `]`):                                  "clusters[1]: id " + clusterListed + " appears twice in project " + testProject,
		fixturesWith(`"clusters": [` + cl(`, "typeName": "STANDALONE"`) + `]`):                        "clusters[0]: typeName STANDALONE is not one of",
		fixturesWith(`"clusters": [` + cl(`, "lastHeartbeat": "yesterday"`) + `]`):                    "clusters[0]: lastHeartbeat yesterday is not a timestamp",
		fixturesWith(`"clusters": [{"id": "x", "groupId": "` + testProject + `"}]`):                   "clusters[0]: id x must be 24 hexadecimal digits",
		fixturesWith(`"clusters": [{"id": "` + clusterListed + `", "groupId": "` + testOther + `"}]`): "clusters[0]: groupId " + testOther + " is not a project",
		fixturesWith(`"clusters": [` + cl(`, "shardName": 3`) + `]`):                                  "clusters[0]: shardName must be a string",
	})
}

func TestClustersAreListedThenDerivedAndSurviveRestart(t *testing.T) {
	f, err := fixture.ParseFixtures("f.json", []byte(clusterFixtures))
	if err != nil {
		t.Fatal(err)
	}
	want := "0002:REPLICA_SET:listed:rsL 0003:SHARDED_REPLICA_SET:: 0001:REPLICA_SET:named-late:rs9"
	st := NewState(f, start)
	if got := clusterSummary(st); got != want {
		t.Errorf("clusters %s, want %s", got, want)
	}
	again, err := restarted(t, st)
	if err != nil {
		t.Fatal(err)
	}
	if got := clusterSummary(again); got != want {
		t.Errorf("after restart %s, want %s", got, want)
	}
}

// str is a member's string, "" for none.
func str(v any) string {
	s, _ := v.(string)
	return s
}
