package cmdutil

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/omctl/omctl/internal/api"
)

// The lists completion offers ids from (docs/api.md, Lists and reads),
// each id described by the name a person knows it by.
var (
	ProjectsListed = Listed{
		Path: func(*Factory, []string) (string, error) { return api.ListProjects.Path(), nil },
		Item: func(m map[string]any) (string, string) { return Field(m, "id"), Field(m, "name") },
	}
	OrgsListed = Listed{
		Path: func(*Factory, []string) (string, error) { return api.ListOrgs.Path(), nil },
		Item: func(m map[string]any) (string, string) { return Field(m, "id"), Field(m, "name") },
	}
	ClustersListed = Listed{
		Path: func(f *Factory, _ []string) (string, error) {
			p, err := f.ProjectID()
			return api.ListClusters.Path(p), err
		},
		Item: func(m map[string]any) (string, string) {
			desc := strings.TrimSpace(Field(m, "clusterName") + " " + Field(m, "typeName"))
			if shard := Field(m, "shardName"); shard != "" {
				desc += " shard " + shard
			}
			return Field(m, "id"), desc
		},
	}
	OplogStoresListed    = storesListed(api.ListOplogStores)
	SnapshotStoresListed = storesListed(api.ListSnapshotStores)
	APIKeysListed        = Listed{
		Path: func(f *Factory, _ []string) (string, error) {
			org, err := f.OrgID()
			return api.ListAPIKeys.Path(org), err
		},
		Item: func(m map[string]any) (string, string) { return Field(m, "id"), Field(m, "desc") },
	}
	// AccessListListed lists the entries of the key named by the first argument.
	AccessListListed = Listed{
		Path: func(f *Factory, args []string) (string, error) {
			org, err := f.OrgID()
			if err != nil {
				return "", err
			}
			if err := CheckID("API key", args[0]); err != nil {
				return "", err
			}
			return api.ListAccessList.Path(org, args[0]), nil
		},
		Item: func(m map[string]any) (string, string) {
			if ip := Field(m, "ipAddress"); ip != "" {
				return ip, "address, used " + count(m)
			}
			return Field(m, "cidrBlock"), "block, used " + count(m)
		},
	}
)

// storesListed lists every store of a kind, those closed to new
// assignments included.
func storesListed(e api.Endpoint) Listed {
	return Listed{
		Path:  func(*Factory, []string) (string, error) { return e.Path(), nil },
		Query: url.Values{"assignableOnly": {"false"}},
		Item:  func(m map[string]any) (string, string) { return Field(m, "id"), Field(m, "s3BucketName") },
	}
}

func count(m map[string]any) string {
	n, _ := m["count"].(float64)
	return strconv.FormatFloat(n, 'f', -1, 64) + " times"
}
