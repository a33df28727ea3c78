package store

// What the handlers read. The maps behind them stay the store's own: a
// handler finds a resource here and changes it only through an operation
// of ops.go, which records the change for the state file.

// Project is a project's document, nil when there is none.
func (s *State) Project(id string) *Project { return s.projects[id] }

// Org is an organization's document, nil when there is none.
func (s *State) Org(id string) *Org { return s.orgs[id] }

// Principal is the API key or user signing in as name, nil for none.
func (s *State) Principal(name string) *Principal { return s.principals[name] }

// APIKey is an API key by its id, nil for none.
func (s *State) APIKey(id string) *APIKey { return s.apiKeys[id] }

// Alert is an alert of a project by its id, nil for none.
func (s *State) Alert(id string) *AlertRec { return s.alertByID[id] }

// ProjectAlerts are a project's alerts, nil when it has none.
func (s *State) ProjectAlerts(project string) *AlertSet { return s.alerts[project] }

// GlobalAlertSet are the global alerts.
func (s *State) GlobalAlertSet() *AlertSet { return s.globalAlerts }

// AlertConfigs are a project's alert configurations, empty when it has none.
func (s *State) AlertConfigs(project string) *Ordered[*AlertConfig] {
	return orEmpty(s.alertConfigs[project])
}

// GlobalAlertConfigs are the global alert configurations.
func (s *State) GlobalAlertConfigs() *Ordered[*AlertConfig] { return s.globalConfigs }

// BackupConfig is a cluster's backup configuration, nil for none.
func (s *State) BackupConfig(project, cluster string) *BackupConfig {
	return s.backupConfigs[joinKey(project, cluster)]
}

// HasCluster reports whether the project has the cluster: one with a
// backup configuration or snapshots.
func (s *State) HasCluster(project, cluster string) bool {
	return s.clusters[joinKey(project, cluster)]
}

// Snapshots are a cluster's snapshots, empty when it has none.
func (s *State) Snapshots(project, cluster string) *Ordered[*Snapshot] {
	return orEmpty(s.snapshots[joinKey(project, cluster)])
}

// ConfigServerSnapshots are the snapshots of a config server (a host),
// nil when the project has none of that host.
func (s *State) ConfigServerSnapshots(project, host string) *Ordered[*Snapshot] {
	return s.csSnapshots[joinKey(project, host)]
}

// OplogStores are the oplog stores, in the order they were created.
func (s *State) OplogStores() *Ordered[*S3Store] { return s.oplogStores }

// SnapshotStores are the snapshot stores, in the order they were created.
func (s *State) SnapshotStores() *Ordered[*S3Store] { return s.snapshotStores }

// BackupJobConfig is a project's backup jobs configuration, nil for none.
func (s *State) BackupJobConfig(project string) *BackupJobConfig { return s.backupJobs[project] }

func orEmpty[R storedRecord](o *Ordered[R]) *Ordered[R] {
	if o == nil {
		return newOrdered[R]()
	}
	return o
}
