package rules

import (
	"fmt"
	"regexp"

	"github.com/omctl/omctl/internal/api"
)

// Matcher field names and operators an alert configuration may use, and
// the threshold operators the alert engine compares with (docs/server.md,
// Alert engine).
var (
	MatcherFields    = []string{"HOSTNAME", "PORT", "HOSTNAME_AND_PORT", "REPLICA_SET_NAME", "TYPE_NAME", "CLUSTER_NAME", "SHARD_NAME"}
	MatcherOperators = []string{"EQUALS", "NOT_EQUALS", "CONTAINS", "NOT_CONTAINS", "STARTS_WITH", "ENDS_WITH", "REGEX"}
	ThresholdOps     = []string{"GREATER_THAN", "LESS_THAN"}
)

// CheckMatchers refuses matchers with a field name or operator the engine
// does not know, a REGEX that is not RE2, and thresholds it cannot compare.
func CheckMatchers(cfg Doc) *Error {
	list, _ := cfg["matchers"].([]any)
	for i, it := range list {
		m, _ := it.(map[string]any)
		name := fmt.Sprintf("matchers[%d].fieldName", i)
		field, hasField := m["fieldName"].(string)
		if !hasField {
			field, hasField = m["field"].(string)
			name = fmt.Sprintf("matchers[%d].field", i)
		}
		if !hasField {
			return Missing(fmt.Sprintf("matchers[%d].fieldName", i))
		}
		if !api.OneOf(field, MatcherFields) {
			return notInEnum(field, name, MatcherFields)
		}
		op, _ := m["operator"].(string)
		if !api.OneOf(op, MatcherOperators) {
			return notInEnum(op, fmt.Sprintf("matchers[%d].operator", i), MatcherOperators)
		}
		if want, _ := m["value"].(string); op == "REGEX" {
			if _, err := regexp.Compile(want); err != nil {
				return Invalidf("INVALID_JSON_ATTRIBUTE",
					fmt.Sprintf("matchers[%d].value %q is not a regular expression (RE2 syntax).", i, want), fmt.Sprintf("matchers[%d].value", i))
			}
		}
	}
	for _, k := range []string{"threshold", "metricThreshold"} {
		if t, ok := cfg[k].(map[string]any); ok {
			if op, has := t["operator"].(string); has && !api.OneOf(op, ThresholdOps) {
				return notInEnum(op, k+".operator", ThresholdOps)
			}
		}
	}
	return nil
}
