package s3store

import (
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/output"
	"github.com/omctl/omctl/internal/rules"
)

// Detail is the terminal view of a store's describe. A secret key is said
// to be set, masked, never shown: -o json shows the store as the server
// sent it.
var Detail = output.Details("a store", func(s api.S3Store) []output.Field {
	certs := make([]string, len(s.CustomCertificates))
	for i, c := range s.CustomCertificates {
		certs[i] = c.Filename
	}
	return []output.Field{
		{Name: "ID", Value: s.ID},
		{Name: "Bucket", Value: s.S3BucketName},
		{Name: "Endpoint", Value: s.S3BucketEndpoint},
		{Name: "Region override", Value: s.S3RegionOverride},
		{Name: "Path-style access", Value: optBool(s.PathStyleAccessEnabled)},
		{Name: "Auth method", Value: authMethod(s)},
		{Name: "Access key", Value: s.CloudAccessKey + s.AWSAccessKey},
		{Name: "Secret key", Value: rules.Mask("cloudSecretKey", s.CloudSecretKey+s.AWSSecretKey)},
		{Name: "Max connections", Value: optInt(s.S3MaxConnections)},
		{Name: "Load factor", Value: optInt(s.LoadFactor)},
		{Name: "Server-side encryption", Value: optBool(s.SSEEnabled)},
		{Name: "TLS only", Value: optBool(s.SSL)},
		{Name: "Assignment enabled", Value: optBool(s.AssignmentEnabled)},
		{Name: "Labels", Value: strings.Join(s.Labels, "\n")},
		{Name: "Metadata URI", Value: s.URI},
		{Name: "Write concern", Value: s.WriteConcern},
		{Name: "Custom certificates", Value: strings.Join(certs, "\n")},
	}
})
