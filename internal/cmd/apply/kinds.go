package apply

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/omctl/omctl/internal/cmdutil"
)

// Kind is one kind of document: its fields and how it is identified.
type Kind struct {
	Name   string
	Fields map[string]field
	// check states what identifies a document of the kind.
	check func(*Document) error
}

// NameTag is the tag apply keeps on an alert configuration created from a
// document with a name, so later runs find it again (docs/apply.md).
const NameTag = "omctl:name="

var common = map[string]field{"links": managed(), "created": managed(), "updated": managed()}

func with(base map[string]field, more map[string]field) map[string]field {
	out := map[string]field{}
	for _, m := range []map[string]field{common, base, more} {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

func storeFields(snapshot bool) map[string]field {
	f := map[string]field{
		"id": str(), "acceptedTos": boolean(), "assignmentEnabled": boolean(),
		"cloudAccessKey": str(), "cloudSecretKey": str(), "awsAccessKey": str(), "awsSecretKey": str(),
		"s3AuthMethod":       str(),
		"customCertificates": objects(map[string]field{"filename": str(), "certString": str()}),
		"disableProxyS3":     boolean(), "encryptedCredentials": boolean(),
		"labels": strs(), "pathStyleAccessEnabled": boolean(),
		"s3BucketEndpoint": str(), "s3BucketName": str(), "s3MaxConnections": integer(),
		"s3RegionOverride": str(), "sseEnabled": boolean(), "ssl": boolean(), "uri": str(), "writeConcern": str(),
	}
	if snapshot {
		f["loadFactor"] = integer()
	}
	return with(f, nil)
}

var notificationFields = map[string]field{
	"typeName": str(), "delayMin": integer(), "intervalMin": integer(),
	"emailAddress": str(), "emailEnabled": boolean(), "smsEnabled": boolean(), "mobileNumber": str(),
	"webhookUrl": str(), "webhookSecret": str(), "username": str(), "teamId": str(), "teamName": str(),
	"roles": strs(), "apiToken": str(), "channelName": str(), "chatBWebhookUrl": str(), "microsoftTeamsWebhookUrl": str(),
	"notificationToken": str(), "roomName": str(), "monitoringApiKey": str(), "monitoringRegion": str(),
	"datadogApiKey": str(), "datadogRegion": str(), "alertingApiKey": str(), "alertingRegion": str(),
	"opsGenieApiKey": str(), "opsGenieRegion": str(), "serviceKey": str(), "incidentApiKey": str(),
	"incidentRoutingKey": str(), "victorOpsApiKey": str(), "victorOpsRoutingKey": str(),
	"notifierId": str(),
}

func alertConfigFields(global bool) map[string]field {
	f := map[string]field{
		"id": str(), "groupId": str(), "typeName": managed(), "enabled": boolean(), "eventTypeName": str(),
		"matchers":        objects(map[string]field{"fieldName": str(), "operator": str(), "value": str()}),
		"metricThreshold": object(map[string]field{"metricName": str(), "operator": str(), "threshold": number(), "units": str(), "mode": str()}),
		"threshold":       object(map[string]field{"operator": str(), "threshold": number(), "units": str()}),
		"notifications":   objects(notificationFields),
		"tags":            strs(),
	}
	if global {
		f["forAllGroups"] = boolean()
		f["groupIds"] = strs()
	} else {
		f["name"] = str()
	}
	return with(f, nil)
}

var accessEntryFields = with(map[string]field{"ipAddress": str(), "cidrBlock": str(),
	"count": managed(), "lastUsed": managed(), "lastUsedAddress": managed()}, nil)

var kinds = []*Kind{
	{Name: "OplogStore", Fields: storeFields(false), check: needString("id", "the store's name")},
	{Name: "SnapshotStore", Fields: storeFields(true), check: needString("id", "the store's name")},
	{Name: "BackupJobsConfig", Fields: with(map[string]field{
		"id": str(), "labelFilter": strs(), "syncStoreFilter": strs(),
		"oplogStoreFilter":       objects(map[string]field{"id": str(), "type": str()}),
		"snapshotStoreFilter":    objects(map[string]field{"id": str(), "type": str()}),
		"daemonFilter":           objects(map[string]field{"machine": str(), "headRootDirectory": str()}),
		"kmipClientCertPath":     str(),
		"kmipClientCertPassword": str(),
	}, nil), check: optionalID("id", "project")},
	{Name: "AlertConfig", Fields: alertConfigFields(false), check: checkAlertConfig},
	{Name: "GlobalAlertConfig", Fields: alertConfigFields(true), check: func(d *Document) error {
		if err := needString("id", "the configuration's id")(d); err != nil {
			return err
		}
		return cmdutil.CheckID("id", d.Fields["id"].(string))
	}},
	{Name: "BackupConfig", Fields: with(map[string]field{
		"groupId": str(), "clusterId": str(), "statusName": str(), "storageEngineName": str(), "authMechanismName": str(),
		"encryptionEnabled": boolean(), "sslEnabled": boolean(), "multiRegionBackupEnabled": boolean(),
		"excludedNamespaces": strs(), "includedNamespaces": strs(), "syncSource": str(),
		"deploymentConfigs":        objects(map[string]field{"rsId": str(), "deploymentId": str()}),
		"multiRegionMisconfigured": managed(), "availableMembers": managed(), "preferredMember": managed(),
	}, nil), check: func(d *Document) error {
		if err := needString("clusterId", "the cluster's id")(d); err != nil {
			return err
		}
		if err := cmdutil.CheckID("clusterId", d.Fields["clusterId"].(string)); err != nil {
			return err
		}
		return optionalID("groupId", "project")(d)
	}},
	{Name: "AccessList", Fields: with(map[string]field{
		"apiKeyId": str(), "orgId": str(),
		"results": objects(accessEntryFields), "totalCount": managed(),
	}, nil), check: checkAccessList},
}

// KindNames lists the kinds apply accepts.
func KindNames() []string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Name
	}
	return names
}

// KindByName finds a kind, nil when there is none of that name.
func KindByName(name string) *Kind {
	for _, k := range kinds {
		if k.Name == name {
			return k
		}
	}
	return nil
}

func needString(name, what string) func(*Document) error {
	return func(d *Document) error {
		if s, _ := d.Fields[name].(string); s == "" {
			return fmt.Errorf("field %s is missing: it names %s", name, what)
		}
		return nil
	}
}

// optionalID checks an id field that defaults to the profile's project.
func optionalID(name, what string) func(*Document) error {
	return func(d *Document) error {
		if s, _ := d.Fields[name].(string); s != "" {
			return cmdutil.CheckID(name, s)
		}
		return nil
	}
}

func checkAlertConfig(d *Document) error {
	if err := optionalID("groupId", "project")(d); err != nil {
		return err
	}
	id, _ := d.Fields["id"].(string)
	name, _ := d.Fields["name"].(string)
	if id == "" && name == "" {
		return fmt.Errorf("field name or id is missing: a configuration is found again by its name (kept in the tag %sNAME) or its id", NameTag)
	}
	if id != "" {
		if err := cmdutil.CheckID("id", id); err != nil {
			return err
		}
	}
	if tags, ok := d.Fields["tags"].([]any); ok {
		for i, t := range tags {
			if s := t.(string); strings.HasPrefix(s, NameTag) && (name == "" || s != NameTag+name) {
				return fmt.Errorf("field tags[%d] %q: tags starting with %s are apply's own; give the field name instead", i, s, NameTag)
			}
		}
	}
	return nil
}

func checkAccessList(d *Document) error {
	if err := needString("apiKeyId", "the API key whose access list this is")(d); err != nil {
		return err
	}
	if err := cmdutil.CheckID("apiKeyId", d.Fields["apiKeyId"].(string)); err != nil {
		return err
	}
	if err := optionalID("orgId", "organization")(d); err != nil {
		return err
	}
	entries, _ := d.Fields["results"].([]any)
	for i, e := range entries {
		if _, err := entryKey(e.(map[string]any)); err != nil {
			return fmt.Errorf("field results[%d]: %w", i, err)
		}
	}
	return nil
}

// entryKey is an access-list entry's address block in canonical form, so a
// single address and its /32 (or /128) block are one entry.
func entryKey(m map[string]any) (string, error) {
	ip, _ := m["ipAddress"].(string)
	cidr, _ := m["cidrBlock"].(string)
	switch {
	case ip != "" && cidr == "":
		a, err := netip.ParseAddr(ip)
		if err != nil || a.Zone() != "" {
			return "", fmt.Errorf("ipAddress %q is not an IP address", ip)
		}
		a = a.Unmap()
		return netip.PrefixFrom(a, a.BitLen()).String(), nil
	case cidr != "":
		p, err := netip.ParsePrefix(cidr)
		if err != nil {
			return "", fmt.Errorf("cidrBlock %q is not a CIDR block such as 10.0.0.0/16", cidr)
		}
		return p.Masked().String(), nil
	}
	return "", fmt.Errorf("an entry needs ipAddress or cidrBlock")
}
