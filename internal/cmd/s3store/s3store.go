// Package s3store holds what the oplog store and snapshot store commands
// share: a flag for every field of an S3-compatible store, the
// merge of a --file with those flags, and the checks the API states.
package s3store

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/secretref"
)

// Flags are the store fields given on the command line.
type Flags struct {
	Store     api.S3Store
	CertFiles []string
	File      string
}

// AddFlags registers a flag for every field of an S3 store (docs/api.md) that kind accepts.
func AddFlags(cmd *cobra.Command, kind rules.StoreKind, op rules.StoreOp, f *Flags) {
	fs := cmd.Flags()
	s := &f.Store
	fs.StringVarP(&f.File, "file", "f", "", "JSON file of the store (- for standard input); flags override its fields")
	if op == rules.Create {
		fs.StringVar(&s.ID, "id", "", "unique name of the store (required)")
	}
	cmdutil.OptionalBoolVar(fs, &s.AcceptedTos, "accepted-tos", "accept the terms of service (required, must be true)")
	cmdutil.OptionalBoolVar(fs, &s.AssignmentEnabled, "assignment-enabled", "whether backup jobs can be assigned to the store")
	fs.StringVar(&s.CloudAccessKey, "access-key", "", "access key ID of the bucket (not with --auth-method IAM_ROLE)")
	fs.StringVar(&s.CloudSecretKey, "secret-key", "", "secret key of the bucket: - to type it hidden or pipe it in, or a reference, '${env:NAME}' or '${file:PATH}'; never the key itself")
	fs.StringVar(&s.S3AuthMethod, "auth-method", "", "KEYS or IAM_ROLE")
	fs.StringArrayVar(&f.CertFiles, "custom-cert", nil, "PEM file of a CA chain the store trusts (repeatable)")
	cmdutil.OptionalBoolVar(fs, &s.DisableProxyS3, "disable-proxy-s3", "bypass the configured HTTP proxy")
	cmdutil.OptionalBoolVar(fs, &s.EncryptedCredentials, "encrypted-credentials", "the credentials were encrypted with the credentials tool")
	fs.StringArrayVar(&s.Labels, "label", nil, "label controlling which backup jobs may use the store (repeatable)")
	if kind == rules.SnapshotStore {
		cmdutil.OptionalInt64Var(fs, &s.LoadFactor, "load-factor", "relative share of backup work, a positive integer")
	}
	cmdutil.OptionalBoolVar(fs, &s.PathStyleAccessEnabled, "path-style-access", "path-style endpoint (true) or virtual-host-style (false) (required)")
	fs.StringVar(&s.S3BucketEndpoint, "bucket-endpoint", "", "URL of the bucket endpoint (required)")
	fs.StringVar(&s.S3BucketName, "bucket-name", "", "bucket name (required)")
	maxConns := "maximum connections to the bucket, a positive integer (required)"
	if kind == rules.SnapshotStore && op == rules.Create {
		maxConns = "maximum connections to the bucket, a positive integer (the server's default: 50)"
	}
	cmdutil.OptionalInt64Var(fs, &s.S3MaxConnections, "max-connections", maxConns)
	fs.StringVar(&s.S3RegionOverride, "region-override", "", "region, for endpoints that do not scope by region")
	cmdutil.OptionalBoolVar(fs, &s.SSEEnabled, "sse", "server-side encryption (required)")
	cmdutil.OptionalBoolVar(fs, &s.SSL, "ssl", "the store accepts only TLS connections")
	fs.StringVar(&s.URI, "uri", "", "connection string of the metadata database (required)")
	fs.StringVar(&s.WriteConcern, "write-concern", "", "ACKNOWLEDGED, W2, JOURNALED or MAJORITY")
}

// readSecretKey replaces --secret-key by the secret it names: - reads it
// from standard input (hidden at a terminal), a reference from the
// environment or a file. The key itself on the command line is refused:
// shell history and ps would keep it.
func (f *Flags) readSecretKey(ctx context.Context, deps cmdutil.Deps) error {
	v := f.Store.CloudSecretKey
	switch ref, isRef := secretref.Parse(v); {
	case v == "":
		return nil
	case v == "-" && f.File == "-":
		return cmdutil.FlagErrorf("--secret-key - and --file - both read standard input: give the key in the file, or by reference ('${env:NAME}', '${file:PATH}')")
	case v == "-":
		key, err := cmdutil.ReadSecret(ctx, deps, "secret key", "'... --secret-key - < FILE'")
		if err != nil {
			return err
		}
		f.Store.CloudSecretKey = key
	case isRef:
		key, err := secretref.Resolver{}.Value(ref)
		if err != nil {
			return cmdutil.FlagErrorf("--secret-key %v", err)
		}
		f.Store.CloudSecretKey = key
	default:
		return cmdutil.FlagErrorf("--secret-key takes no key on the command line (shell history and ps would keep it): give --secret-key - to type it hidden or pipe it in, or a reference, '${env:NAME}' or '${file:PATH}'")
	}
	return nil
}

// Body merges the --file document with the flags (flags win) and checks
// the result. Fields of the file that omctl does not know are kept.
func (f *Flags) Body(ios *iostreams.IOStreams, kind rules.StoreKind, op rules.StoreOp) (map[string]any, error) {
	body := map[string]any{}
	if f.File != "" {
		raw, err := cmdutil.ReadBodyInput(ios, "--file", f.File)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(raw, &body); err != nil {
			return nil, cmdutil.FlagErrorf("--file %s: a store must be a JSON object: %s", f.File, cmdutil.DescribeJSONError(err))
		}
	}
	overlay, err := f.Changes()
	if err != nil {
		return nil, err
	}
	for k, v := range overlay {
		body[k] = v
	}
	return body, Validate(body, kind, op)
}

// Changes are the fields the flags give, the PEM files of --custom-cert
// read.
func (f *Flags) Changes() (map[string]any, error) {
	s := f.Store
	for _, path := range f.CertFiles {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, cmdutil.FlagErrorf("cannot read --custom-cert %s: %s", path, cmdutil.DescribeFileError(err))
		}
		if block, _ := pem.Decode(data); block == nil || block.Type != "CERTIFICATE" {
			return nil, cmdutil.FlagErrorf("--custom-cert %s is not a PEM certificate: want a file holding -----BEGIN CERTIFICATE-----", path)
		}
		s.CustomCertificates = append(s.CustomCertificates, api.CustomCertificate{Filename: filepath.Base(path), CertString: string(data)})
	}
	fromFlags, _ := json.Marshal(s)
	overlay := map[string]any{}
	_ = json.Unmarshal(fromFlags, &overlay)
	return overlay, nil
}

// Merge is the body of an update from flags alone: the store as read,
// current, with the flags' fields changes in place, checked. Keys given
// by flags take the place of keys stored under the other names.
func Merge(current, changes map[string]any, kind rules.StoreKind) (map[string]any, error) {
	if changes["cloudAccessKey"] != nil || changes["cloudSecretKey"] != nil {
		current = maps.Clone(current)
		delete(current, "awsAccessKey")
		delete(current, "awsSecretKey")
	}
	body, err := cmdutil.MergeUpdate(current, changes, map[string]string{"cloudSecretKey": "--secret-key", "awsSecretKey": "--secret-key"})
	if err != nil {
		return nil, err
	}
	return body, Validate(body, kind, rules.Replace)
}

// CheckChanges checks the fields the flags of an update give, before the
// store is read: values of the right type, in their enum, positive where
// the API says so, and acceptedTos not false. What is required is checked
// once they are merged into the store (Merge).
func CheckChanges(changes map[string]any, kind rules.StoreKind) error {
	if changes["acceptedTos"] == false {
		return errNoTerms()
	}
	if kind == rules.OplogStore && changes["loadFactor"] != nil {
		return cmdutil.FlagErrorf("loadFactor applies to snapshot stores only")
	}
	raw, _ := json.Marshal(changes)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var known map[string]any
	_ = dec.Decode(&known)
	sch := rules.StoreBody(kind, rules.Replace).Optional()
	for k := range known {
		if _, named := sch[k]; !named {
			delete(known, k)
		}
	}
	if err := sch.Check(known, "", nil); err != nil {
		return ruleError(err)
	}
	return nil
}

// Validate checks a store request with the API's own rules
// (internal/rules), so the command refuses what the server would, naming
// flags: acceptedTos true, every required field (all missing ones at
// once), types, enums and positive numbers. Fields the rules do not name
// are left to the server, which may know them. omctl also wants the keys
// of a store that authenticates with them.
func Validate(body map[string]any, kind rules.StoreKind, op rules.StoreOp) error {
	if body["acceptedTos"] == false {
		return errNoTerms()
	}
	sch := rules.StoreBody(kind, op)
	required := sch.Required()
	if i := slices.Index(required, "id"); i > 0 {
		// The store's name first, then the rest in name order.
		required = append([]string{"id"}, slices.Delete(required, i, i+1)...)
	}
	var missing []string
	for _, k := range required {
		if v, ok := body[k]; !ok || v == nil || v == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return cmdutil.FlagErrorf("missing required store field(s): %s (flags: %s)", strings.Join(missing, ", "), flagNames(missing))
	}
	if kind == rules.OplogStore && body["loadFactor"] != nil {
		return cmdutil.FlagErrorf("loadFactor applies to snapshot stores only")
	}
	raw, _ := json.Marshal(body)
	var s api.S3Store
	if err := json.Unmarshal(raw, &s); err != nil {
		// Told in omctl's words: which field, what it got, what it wants.
		return cmdutil.FlagErrorf("invalid store field %s", cmdutil.DescribeJSONError(err))
	}
	// The rules read a body as the server decodes it, with exact numbers;
	// they may drop fields, so they read a copy. An update's id is the
	// command's STORE_ID, which the command checks itself.
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var known map[string]any
	_ = dec.Decode(&known)
	for k := range known {
		if _, named := sch[k]; !named {
			delete(known, k)
		}
	}
	if op == rules.Replace {
		delete(known, "id")
	}
	if err := rules.CheckStore(known, kind, op, ""); err != nil {
		return ruleError(err)
	}
	if authMethod(s) == "KEYS" && !hasKeys(s) {
		return cmdutil.FlagErrorf("s3AuthMethod KEYS needs the bucket's keys: give --access-key and --secret-key (cloudAccessKey, cloudSecretKey in --file), or --auth-method IAM_ROLE")
	}
	return nil
}

func errNoTerms() error {
	return cmdutil.FlagErrorf("acceptedTos must be true: a store cannot be created or updated without accepting the terms of service (--accepted-tos)")
}

// ruleError says what rule a store broke, with the field's flag.
func ruleError(err *rules.Error) error {
	field, _ := err.Params[0].(string)
	if err.Code == "INVALID_ENUM_VALUE" {
		field, _ = err.Params[1].(string)
	}
	if i := strings.IndexAny(field, ".["); i >= 0 {
		field = field[:i]
	}
	flag := fieldFlags[field]
	if flag == "" {
		flag = "--file"
	}
	switch err.Code {
	case "INVALID_ENUM_VALUE":
		return cmdutil.FlagErrorf("invalid %s %q: valid values are %s", field, err.Params[0], strings.Join(err.Allowed, ", "))
	case "ATTRIBUTE_NEGATIVE_OR_ZERO":
		return cmdutil.FlagErrorf("%s must be a positive integer (%s)", field, flag)
	case "CANNOT_CREATE_STORE_WITHOUT_ACCEPTED_TOS":
		return errNoTerms()
	}
	return cmdutil.FlagErrorf("invalid store field %s: %s (%s)", field, err.Rule(), flag)
}

var fieldFlags = map[string]string{"id": "--id", "acceptedTos": "--accepted-tos", "pathStyleAccessEnabled": "--path-style-access",
	"s3BucketEndpoint": "--bucket-endpoint", "s3BucketName": "--bucket-name", "s3MaxConnections": "--max-connections",
	"sseEnabled": "--sse", "uri": "--uri", "s3AuthMethod": "--auth-method", "writeConcern": "--write-concern",
	"loadFactor": "--load-factor", "labels": "--label", "customCertificates": "--custom-cert", "ssl": "--ssl",
	"assignmentEnabled": "--assignment-enabled", "cloudAccessKey": "--access-key", "cloudSecretKey": "--secret-key",
	"disableProxyS3": "--disable-proxy-s3", "encryptedCredentials": "--encrypted-credentials", "s3RegionOverride": "--region-override"}

func flagNames(fields []string) string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = fieldFlags[f]
	}
	return strings.Join(names, ", ")
}

// Table shows oplog stores.
var Table = output.Columns([]string{"ID", "BUCKET", "ENDPOINT", "AUTH", "MAX CONNECTIONS", "ASSIGNMENT", "LABELS"},
	func(s api.S3Store) []string {
		return []string{s.ID, s.S3BucketName, s.S3BucketEndpoint, authMethod(s), optInt(s.S3MaxConnections), optBool(s.AssignmentEnabled), strings.Join(s.Labels, ",")}
	})

// SnapshotTable shows snapshot stores: the oplog store's columns and the
// load factor, which only snapshot stores have (last, so piped columns
// keep their place).
var SnapshotTable = output.Columns([]string{"ID", "BUCKET", "ENDPOINT", "AUTH", "MAX CONNECTIONS", "ASSIGNMENT", "LABELS", "LOAD FACTOR"},
	func(s api.S3Store) []string {
		return []string{s.ID, s.S3BucketName, s.S3BucketEndpoint, authMethod(s), optInt(s.S3MaxConnections), optBool(s.AssignmentEnabled), strings.Join(s.Labels, ","), optInt(s.LoadFactor)}
	})

// TableFor is the table of a kind of store.
func TableFor(kind rules.StoreKind) output.TableDef {
	if kind == rules.SnapshotStore {
		return SnapshotTable
	}
	return Table
}

// hasKeys reports whether a store carries an access key and a secret key,
// under either of the names the API accepts.
func hasKeys(s api.S3Store) bool {
	return (s.CloudAccessKey != "" && s.CloudSecretKey != "") || (s.AWSAccessKey != "" && s.AWSSecretKey != "")
}

// authMethod is the store's s3AuthMethod; absent means KEYS.
func authMethod(s api.S3Store) string {
	if s.S3AuthMethod == "" {
		return "KEYS"
	}
	return s.S3AuthMethod
}

func optInt(v *int64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatInt(*v, 10)
}

func optBool(v *bool) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(*v)
}

// CheckStoreID refuses a body whose id names another store than the
// STORE_ID an update addresses.
func CheckStoreID(body map[string]any, storeID string) error {
	if storeID == "" {
		return cmdutil.FlagErrorf("STORE_ID must not be empty")
	}
	if id, ok := body["id"]; ok && id != storeID {
		return cmdutil.FlagErrorf("the file's id %v differs from STORE_ID %q: a store's name cannot be changed", jsonText(id), storeID)
	}
	return nil
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
