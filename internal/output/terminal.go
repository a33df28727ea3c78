package output

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/omctl/omctl/internal/api"
)

const (
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiReset  = "\x1b[0m"
)

var statusColors = map[string]string{"OPEN": ansiRed, "TRACKING": ansiYellow, "CLOSED": ansiGreen}

// shortUnits are the short forms of relativeTime's units.
var shortUnits = strings.NewReplacer(" minutes", "m", " minute", "m", " hours", "h", " hour", "h",
	" days", "d", " day", "d", " months", "mo", " month", "mo", " years", "y", " year", "y")

// shortRelative is a relative time in its short form, whole: "30 days
// ago" is "30d ago", "in 20 hours" is "in 20h"; other text is kept.
func shortRelative(s string) string { return shortUnits.Replace(s) }

// colorStatuses paints the STATUS column: OPEN red, TRACKING yellow,
// CLOSED green.
func colorStatuses(headers []string, rows [][]string) {
	for col, h := range headers {
		if h != "STATUS" {
			continue
		}
		for _, r := range rows {
			if code, ok := statusColors[r[col]]; ok && col < len(r) {
				r[col] = code + r[col] + ansiReset
			}
		}
	}
}

// relativeTime says how far t is from now: "3 hours ago", "in 2 days".
func relativeTime(t, now time.Time) string {
	d := now.Sub(t)
	future := d < 0
	if future {
		d = -d
	}
	// Each unit is rounded to the nearest, not down (2h59m is "3 hours"),
	// and a value that rounds up to the next unit is said in that unit.
	round := func(unit time.Duration) int { return int(math.Round(float64(d) / float64(unit))) }
	const day = 24 * time.Hour
	var amount string
	switch {
	case d < 30*time.Second:
		return "just now"
	case round(time.Minute) < 60:
		amount = plural(round(time.Minute), "minute")
	case round(time.Hour) < 24:
		amount = plural(round(time.Hour), "hour")
	case round(day) < 60:
		amount = plural(round(day), "day")
	case round(30*day) < 24:
		amount = plural(round(30*day), "month")
	default:
		amount = plural(round(365*day), "year")
	}
	if future {
		return "in " + amount
	}
	return amount + " ago"
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// Confirm tells a person at a terminal what a change did, in one line; a
// script (piped output, or -o json/jsonl) gets the changed resource.
func (p *Printer) Confirm(body []byte, def TableDef, message string) error {
	if p.opts.Format == api.FormatTable && p.io.IsStdoutTTY() {
		mark := "✓"
		if p.io.ColorEnabled() {
			mark = ansiGreen + mark + ansiReset
		}
		_, err := fmt.Fprintf(p.io.Out, "%s %s\n", mark, strings.TrimSpace(message))
		return err
	}
	return p.Resource(body, def)
}

// RelativeTime says how far t is from now, as tables show times on a
// terminal ("3 hours ago"); pickers show ages with it.
func RelativeTime(t, now time.Time) string { return relativeTime(t, now) }
