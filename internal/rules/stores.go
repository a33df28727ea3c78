package rules

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/omctl/omctl/internal/api"
)

// StoreKind tells the two kinds of S3 store apart.
type StoreKind int

const (
	OplogStore StoreKind = iota
	SnapshotStore
)

// StoreOp tells a store's creation from its replacement.
type StoreOp int

const (
	// Create names the store in the body's id.
	Create StoreOp = iota
	// Replace names it in the path; the body's id may only repeat it.
	Replace
)

// Defaults of a snapshot store created without them (docs/api.md, S3 stores).
const (
	DefaultS3MaxConnections = 50
	DefaultLoadFactor       = 1
)

// StoreKeyFields hold the bucket's keys, which a store using an IAM role
// neither keeps nor shows (docs/api.md, S3 stores).
var StoreKeyFields = []string{"cloudAccessKey", "cloudSecretKey", "awsAccessKey", "awsSecretKey"}

// errNoTermsAccepted refuses a store sent with acceptedTos false.
var errNoTermsAccepted = Invalidf("CANNOT_CREATE_STORE_WITHOUT_ACCEPTED_TOS",
	"The store cannot be created or updated without accepting the terms of service: acceptedTos must be true.", "acceptedTos")

// StoreBody is the body that creates or replaces a store of kind. An
// explicit acceptedTos false is final whatever else is missing; a
// snapshot store may be created without s3MaxConnections (docs/api.md,
// S3 stores).
func StoreBody(kind StoreKind, op StoreOp) Schema {
	s := Schema{
		"links":       Ignored(),
		"acceptedTos": Bool().Req().Refuse(false, errNoTermsAccepted), "assignmentEnabled": Bool(),
		"cloudAccessKey": Str(), "cloudSecretKey": Str(), "awsAccessKey": Str(), "awsSecretKey": Str(),
		"s3AuthMethod":       Str(api.S3AuthMethods...),
		"customCertificates": Array(Object(Schema{"filename": Str(), "certString": Str()})),
		"disableProxyS3":     Bool(), "encryptedCredentials": Bool(),
		"labels":                 Array(Str()),
		"pathStyleAccessEnabled": Bool().Req(),
		"s3BucketEndpoint":       Str().Req(),
		"s3BucketName":           Str().Req(),
		"s3MaxConnections":       Integer().Pos(),
		"s3RegionOverride":       Str(),
		"sseEnabled":             Bool().Req(),
		"ssl":                    Bool(),
		"uri":                    Str().Req(),
		"writeConcern":           Str(api.WriteConcerns...),
	}
	if kind == SnapshotStore {
		s["loadFactor"] = Integer().Pos()
	}
	if kind == OplogStore || op == Replace {
		s["s3MaxConnections"].Req()
	}
	if op == Create {
		s["id"] = Str().Req().Refuse("", Missing("id"))
	} else {
		s["id"] = ReadOnly()
	}
	return s
}

// CheckStore checks a store body; pathID names the store of a
// replacement. With an IAM role the key fields are dropped: the role is
// used and they are ignored (docs/api.md, S3 stores).
func CheckStore(body Doc, kind StoreKind, op StoreOp, pathID string) *Error {
	var current Doc
	if op == Replace {
		current = Doc{"id": pathID}
	}
	if err := StoreBody(kind, op).Check(body, "", current); err != nil {
		return err
	}
	if op == Create {
		if err := StoreID(body["id"].(string)); err != nil {
			return err
		}
	}
	if body["s3AuthMethod"] == "IAM_ROLE" {
		for _, k := range StoreKeyFields {
			delete(body, k)
		}
	}
	return nil
}

// StoreID checks the id a store is created with: the store is read by it
// as one segment of a path, so it is neither . nor .. and holds no /
// (such a store could never be read), and it is at most
// api.MaxNameLength characters.
func StoreID(id string) *Error {
	if n := utf8.RuneCountInString(id); n > api.MaxNameLength {
		return Invalidf("INVALID_ATTRIBUTE", fmt.Sprintf(
			"Invalid attribute id specified: a store id is at most %d characters long; this one has %d.", api.MaxNameLength, n),
			api.MaxNameLength, n)
	}
	if id == "." || id == ".." || strings.Contains(id, "/") {
		return Invalidf("INVALID_ATTRIBUTE", fmt.Sprintf(
			"Invalid attribute id specified: %q cannot name a store, which is read by its id as one segment of a path: an id is not . or .. and holds no /.", id),
			id)
	}
	return nil
}
