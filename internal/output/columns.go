package output

import (
	"strings"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// kind says how the cells of a column may give way when a table is wider
// than its terminal.
type kind int

const (
	// kindText is free text (names, targets, lists): cut to fit, ending in "…".
	kindText kind = iota
	// kindMasked is a masked secret: it shows nothing worth a column, so
	// it is left out before any text is cut.
	kindMasked
	// kindShort are short values (true, 50): always whole; only their
	// header takes a shorter form.
	kindShort
	// kindCode are upper-snake codes (HOST_DOWN): whole, or each of their
	// words shortened ("OUTS_METR_THRE"), never cut to an ambiguous stub.
	kindCode
	// kindPath is a request path: its leading segments give way whole
	// ("…/alerts/5f1a0c2e8f9d4b0012345678"), then the end of its query,
	// so an id in it is whole or not there.
	kindPath
	// kindTime is a time shown relative to now, then in its short form
	// ("30 days ago", "30d ago").
	kindTime
	// kindWhole are ids, statuses and exact times: never cut.
	kindWhole
)

// column is what a table header means for its layout.
type column struct {
	kind kind
	// rank is the column's importance: the lower gives way first.
	rank int
	// forms are the header and its shorter whole forms, longest first.
	forms []string
}

// first is the rank of a table's first column, its resource's id: never
// cut, never left out.
const first = 1000

// columns are the headers omctl's tables use, each with how it gives way
// and its shorter forms. A header not listed here is free text of little
// importance; TestEveryTableHeaderIsKnown keeps the list complete.
var columns = map[string]column{
	// Ids are what users copy into the next command.
	"ID":         {kindWhole, 100, nil},
	"PROJECT":    {kindWhole, 95, nil},
	"CLUSTER":    {kindWhole, 95, nil},
	"ALERT":      {kindWhole, 90, nil},
	"PUBLIC KEY": {kindWhole, 85, []string{"PUBLIC"}},
	"ORG ID":     {kindWhole, 60, []string{"ORG"}},
	"NOW":        {kindWhole, 100, nil}, // a clock: its time itself, not "just now"
	"STATUS":     {kindWhole, 90, nil},

	"EVENT":          {kindCode, 80, nil},
	"METHOD":         {kindCode, 80, nil},
	"TYPE":           {kindCode, 70, nil},
	"DELIVERY":       {kindCode, 60, nil},
	"ERROR CODE":     {kindCode, 60, []string{"ERROR"}},
	"AUTH":           {kindCode, 40, nil},
	"STORAGE ENGINE": {kindCode, 40, []string{"ENGINE"}},

	"TIME":           {kindTime, 95, nil},
	"SENT":           {kindTime, 95, nil},
	"CREATED":        {kindTime, 75, nil},
	"EXPIRES":        {kindTime, 75, nil},
	"LAST HEARTBEAT": {kindTime, 70, []string{"HEARTBEAT"}},
	"LAST USED":      {kindTime, 55, []string{"USED"}},
	"UPDATED":        {kindTime, 50, nil},
	"ACK UNTIL":      {kindTime, 45, []string{"UNTIL"}},

	"ENABLED":         {kindShort, 65, []string{"ON"}},
	"COMPLETE":        {kindShort, 60, []string{"DONE"}},
	"DO NOT DELETE":   {kindShort, 55, []string{"KEEP"}},
	"COUNT":           {kindShort, 50, nil},
	"DELAY":           {kindShort, 50, nil},
	"TIMES LEFT":      {kindShort, 45, []string{"LEFT"}},
	"ALL PROJECTS":    {kindShort, 40, []string{"ALL"}},
	"PROBABILITY":     {kindShort, 40, []string{"CHANCE"}},
	"ENCRYPTED":       {kindShort, 35, []string{"ENC"}},
	"ASSIGNMENT":      {kindShort, 35, []string{"ASSIGN"}},
	"MULTI-REGION":    {kindShort, 30, []string{"MULTI"}},
	"MISCONFIGURED":   {kindShort, 30, []string{"MISCONF"}},
	"MAX CONNECTIONS": {kindShort, 30, []string{"MAX CONN", "CONN"}},
	"LOAD FACTOR":     {kindShort, 30, []string{"LOAD"}},

	"NAME":              {kindText, 85, nil},
	"PATH":              {kindPath, 85, nil},
	"ANSWER":            {kindText, 70, nil},
	"DESCRIPTION":       {kindText, 70, []string{"DESC"}},
	"TARGET":            {kindText, 60, nil},
	"BUCKET":            {kindText, 55, nil},
	"ROLES":             {kindText, 50, nil},
	"SOURCE":            {kindText, 50, nil},
	"REPLICA SET":       {kindText, 50, []string{"RS"}},
	"CALLER":            {kindText, 50, nil},
	"OPLOG STORES":      {kindText, 50, []string{"OPLOG"}},
	"SNAPSHOT STORES":   {kindText, 50, []string{"SNAPSHOT"}},
	"NOTIFICATIONS":     {kindText, 45, []string{"NOTIFY"}},
	"SHARD":             {kindText, 45, nil},
	"SYNC STORES":       {kindText, 40, []string{"SYNC"}},
	"DAEMONS":           {kindText, 40, nil},
	"ADDRESS":           {kindText, 40, nil},
	"ENDPOINT":          {kindText, 35, nil},
	"LABELS":            {kindText, 30, nil},
	"TAGS":              {kindText, 30, nil},
	"MEMBERS":           {kindText, 30, nil},
	"LAST USED ADDRESS": {kindText, 25, []string{"LAST ADDRESS", "FROM"}},

	"PRIVATE KEY": {kindMasked, 0, nil},
}

// KnownHeader says whether a table header is one of columns, whose
// layout is known.
func KnownHeader(h string) bool {
	_, ok := columns[h]
	return ok
}

// columnOf is the layout of the header at position i of a table.
func columnOf(header string, i int) column {
	c, ok := columns[header]
	if !ok {
		c = column{kind: kindText, rank: 10}
	}
	c.forms = append([]string{header}, c.forms...)
	if i == 0 {
		// What the rows are: copied into the next command, so whole.
		c.rank = first
		if c.kind == kindText || c.kind == kindCode {
			c.kind = kindWhole
		}
	}
	return c
}

// elidePath fits a request path (with its query) into n columns by
// leaving out its leading segments, then the end of its query; a path
// whose last segment does not fit is cut.
func elidePath(p string, n int) string {
	if twwidth.Width(p) <= n {
		return p
	}
	path, query, hasQuery := strings.Cut(p, "?")
	if hasQuery {
		query = "?" + query
	}
	tails := []string{path}
	segs := strings.Split(path, "/")
	for i := 1; i < len(segs); i++ {
		if tail := strings.Join(segs[i:], "/"); tail != "" && tail != path {
			tails = append(tails, "…/"+tail)
		}
	}
	for _, t := range tails {
		rest := n - twwidth.Width(t)
		switch {
		case twwidth.Width(query) <= rest:
			return t + query
		case rest >= 3:
			return t + truncate(query, rest)
		case rest >= 0:
			return t
		}
	}
	return truncate(p, n)
}

// elidedWidth is the narrowest elidePath makes p: its last segment.
func elidedWidth(p string) int {
	path, _, _ := strings.Cut(p, "?")
	i := strings.LastIndexByte(path, '/')
	if i <= 0 {
		return min(twwidth.Width(p), twwidth.Width(path)+3)
	}
	return min(twwidth.Width(p), twwidth.Width("…"+path[i:]))
}

// wordFloor is the fewest letters a word of a code is shortened to.
const wordFloor = 4

// abbreviate fits an upper-snake code into n columns by shortening its
// longest words, each to no fewer than wordFloor letters, so every word
// still says which it is: OUTSIDE_METRIC_THRESHOLD in 14 columns is
// OUTS_METR_THRE. A code that cannot be shortened so is cut.
func abbreviate(code string, n int) string {
	if twwidth.Width(code) <= n {
		return code
	}
	words := strings.Split(code, "_")
	lens := make([]int, len(words))
	total := len(words) - 1
	for i, w := range words {
		if len(w) != twwidth.Width(w) { // not plain ASCII: no code
			return truncate(code, n)
		}
		lens[i] = len(w)
		total += len(w)
	}
	for total > n {
		longest := -1
		for i, l := range lens {
			if l > wordFloor && (longest < 0 || l > lens[longest]) {
				longest = i
			}
		}
		if longest < 0 {
			return truncate(code, n)
		}
		lens[longest]--
		total--
	}
	for i, w := range words {
		words[i] = w[:lens[i]]
	}
	return strings.Join(words, "_")
}

// abbreviatedWidth is the narrowest abbreviate makes code.
func abbreviatedWidth(code string) int {
	words := strings.Split(code, "_")
	n := len(words) - 1
	for _, w := range words {
		if len(w) != twwidth.Width(w) {
			return twwidth.Width(code)
		}
		n += min(len(w), wordFloor)
	}
	return n
}

// truncate cuts s to n display columns, ending in "…" when cut.
func truncate(s string, n int) string {
	if twwidth.Width(s) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	return twwidth.Truncate(s, n-1) + "…"
}
