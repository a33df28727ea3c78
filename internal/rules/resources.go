package rules

import "github.com/omctl/omctl/internal/api"

// The shapes of fixture resources (docs/server.md, Fixtures): what a
// fixture may hold beyond the request bodies. Attributes a shape does not
// name are kept as they are.

// OrgResource is an organization of a fixture.
func OrgResource() Schema { return Schema{"name": Str()} }

// ProjectResource is a project of a fixture.
func ProjectResource() Schema { return Schema{"name": Str(), "orgId": Str()} }

// AlertResource is an alert or global alert of a fixture.
func AlertResource() Schema {
	return Schema{
		"status":            Str(api.AlertStatuses...).Req(),
		"eventTypeName":     Str().Req(),
		"created":           Timestamp(),
		"updated":           Timestamp(),
		"lastNotified":      Timestamp(),
		"resolved":          Timestamp(),
		"acknowledgedUntil": Timestamp(),
		// null for tags, a tag, or a member of currentValue is no value,
		// kept as written, as alerts of fixtures and state files were
		// taken before these members were checked (docs/server.md).
		"currentValue":   Object(Schema{"number": Number().OrNull(), "units": Str(api.Units...).OrNull()}),
		"metricName":     Str(api.MetricNames...),
		"sourceTypeName": Str(api.SourceTypeNames...),
		"tags":           Array(Str().OrNull()).OrNull(),
	}
}

// AlertConfigResource is an alert configuration of a fixture: the body,
// with its times, and for a global one the projects it covers.
func AlertConfigResource(global bool) Schema {
	s := AlertConfigBody()
	s["created"], s["updated"] = Timestamp(), Timestamp()
	if global {
		s["forAllGroups"], s["groupIds"] = Bool(), Array(Str())
	}
	return s
}

// BackupConfigResource is a backup configuration of a fixture.
func BackupConfigResource() Schema {
	return Schema{
		"statusName":               Str(api.BackupStatusNames...),
		"storageEngineName":        Str(api.StorageEngineNames...),
		"authMechanismName":        Str(api.AuthMechanismNames...),
		"encryptionEnabled":        Bool(),
		"sslEnabled":               Bool(),
		"multiRegionBackupEnabled": Bool(),
		"multiRegionMisconfigured": Bool(),
		"excludedNamespaces":       Array(Str()),
		"includedNamespaces":       Array(Str()),
		"availableMembers":         Array(Str()),
		"preferredMember":          Str(),
		"deploymentConfigs":        Array(Object(Schema{"rsId": Str().Req(), "deploymentId": Str().Req()})),
	}
}

// SnapshotResource is a snapshot or config server snapshot of a fixture.
func SnapshotResource() Schema {
	ts := Object(Schema{"date": Timestamp(), "increment": Integer()})
	return Schema{
		"complete":                  Bool(),
		"doNotDelete":               Bool(),
		"expires":                   Timestamp(),
		"isPossiblyInconsistent":    Bool(),
		"created":                   ts,
		"lastOplogAppliedTimestamp": ts,
		"namespaceFilterList":       Object(Schema{"filterList": Array(Str()), "filterType": Str(api.NamespaceFilterTypes...)}),
		"parts":                     Array(Object(Schema{"typeName": Str(api.SnapshotPartTypeNames...)})),
	}
}

// BackupJobConfigResource is a backup jobs configuration of a fixture.
func BackupJobConfigResource() Schema {
	return Schema{
		"labelFilter":         Array(Str()),
		"syncStoreFilter":     Array(Str()),
		"oplogStoreFilter":    Array(Object(Schema{"id": Str(), "type": Str("oplogStore")})),
		"snapshotStoreFilter": Array(Object(Schema{"id": Str(), "type": Str(api.SnapshotStoreFilterTypes...)})),
		"daemonFilter":        Array(Object(Schema{"machine": Str(), "headRootDirectory": Str()})),
	}
}

// StoreResource is an oplog or snapshot store of a fixture: a store body
// with nothing required.
func StoreResource() Schema { return StoreBody(SnapshotStore, Replace).Optional() }
