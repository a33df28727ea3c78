package api

// Limits of the API, one home for what the client checks before sending
// and the server enforces (docs/api.md).
const (
	// MaxItemsPerPage is the largest page a list serves; 100 when absent.
	MaxItemsPerPage     = 500
	DefaultItemsPerPage = 100
	// MaxBodyBytes is the largest request body the server reads.
	MaxBodyBytes = 1 << 20
	// MaxAPIKeyDescription is the longest description of an API key, in
	// characters.
	MaxAPIKeyDescription = 250
	// MaxNameLength is the longest store id and user name, in characters:
	// they name records in the server's state file, whose keys hold at
	// most 32 KiB (a character takes up to 4 bytes).
	MaxNameLength = 256
)
