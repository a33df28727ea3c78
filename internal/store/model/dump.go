package model

import (
	"bufio"
	"encoding/json"
	"io"
)

// Encode writes the fixtures as a fixture file (docs/server.md, Fixture
// file) that LoadFixtures reads back to the same data: the keys in the
// order the file documents them, one item a line, so that a dump of a
// million alerts is written item by item and two dumps compare with diff.
func (f *Fixtures) Encode(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	lists := f.lists()
	bw.WriteString("{")
	first := true
	for _, k := range fixtureKeys {
		var items []any
		switch k {
		case "alerts", "globalAlerts":
			alerts := f.Alerts
			if k == "globalAlerts" {
				alerts = f.GlobalAlerts
			}
			for _, a := range alerts {
				items = append(items, a)
			}
		default:
			for _, d := range *lists[k] {
				items = append(items, d)
			}
		}
		if len(items) == 0 {
			continue
		}
		if !first {
			bw.WriteString(",")
		}
		first = false
		bw.WriteString("\n" + `"` + k + `": [`)
		for i, it := range items {
			if i > 0 {
				bw.WriteString(",")
			}
			bw.WriteString("\n")
			data, err := json.Marshal(it)
			if err != nil {
				return err
			}
			bw.Write(data)
		}
		bw.WriteString("\n]")
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}
