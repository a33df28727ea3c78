package s3store

import "github.com/omctl/omctl/internal/api"

// endpoints are the endpoints of a kind of store (docs/api.md, S3 stores).
type endpoints struct{ create, get, put api.Endpoint }

var endpointsOf = map[Kind]endpoints{
	Oplog:    {create: api.CreateOplogStore, get: api.GetOplogStore, put: api.PutOplogStore},
	Snapshot: {create: api.CreateSnapshotStore, get: api.GetSnapshotStore, put: api.PutSnapshotStore},
}
