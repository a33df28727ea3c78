package api

// Output formats: the values of -o and of the profile key `output`. They
// are omctl's, not the API's, but they live in this package, below both
// internal/config (which checks the key) and internal/output (which prints
// them), so that the two read one list (issue 10: one home for each fact).
const (
	FormatTable = "table"
	FormatJSON  = "json"
	FormatJSONL = "jsonl"
	FormatYAML  = "yaml"
)

// OutputFormats lists the output formats, the default first.
var OutputFormats = []string{FormatTable, FormatJSON, FormatJSONL, FormatYAML}
