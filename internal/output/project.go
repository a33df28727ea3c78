package output

import "encoding/json"

// WithProject is def with a PROJECT column first, the groupId of each
// item: for lists that gather several projects' items.
func WithProject(def TableDef) TableDef {
	return TableDef{
		Headers: append([]string{"PROJECT"}, def.Headers...),
		Row: func(item json.RawMessage) ([]string, error) {
			row, err := def.Row(item)
			if err != nil {
				return nil, err
			}
			var owner struct {
				GroupID string `json:"groupId"`
			}
			_ = json.Unmarshal(item, &owner)
			return append([]string{owner.GroupID}, row...), nil
		},
	}
}
