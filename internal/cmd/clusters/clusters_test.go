package clusters

const (
	project     = "5e2b0c2e8f9d4b0012345678"
	cluster     = "5e3c0c2e8f9d4b0012345678"
	clusterJSON = `{"id":"5e3c0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","clusterName":"Animals","typeName":"REPLICA_SET","replicaSetName":"rs0","shardName":"Animals-0","lastHeartbeat":"2014-04-03T15:26:58Z"}`
)
