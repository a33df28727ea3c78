// Command omctl administers alerts, backups and API keys of database
// deployments through the Monitoring and Backup Administration Public API.
package main

import (
	"os"

	"github.com/omctl/omctl/internal/cmd/root"
)

func main() {
	os.Exit(root.Main())
}
