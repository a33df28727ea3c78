// Package demo makes the data of omctl server --demo: organizations,
// projects, keys, alert configurations, alerts in every status, backups
// and stores, as fixtures, with times relative to the server's clock.
package demo
