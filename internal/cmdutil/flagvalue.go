package cmdutil

// ValueWanted says what a flag of pflag type typ takes, in a message's
// words ("a duration such as 30s, 5m or 2h"), for a value it cannot
// parse; "" for a type whose own error says it.
func ValueWanted(typ string) string {
	return map[string]string{
		"int": "an integer", "int64": "an integer", "uint": "a whole number",
		"bool": "true or false", "optionalBool": "true or false",
		"duration": "a duration such as 30s, 5m or 2h",
	}[typ]
}
