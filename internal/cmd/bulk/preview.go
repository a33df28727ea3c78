package bulk

import (
	"fmt"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

// Previews are the writes a dry run would send, one per id, kept in the
// order of the ids whatever order the workers find them in.
type Previews struct {
	writes []cmdutil.Write
	index  map[string]int
}

// NewPreviews makes room for the previews of ids.
func NewPreviews(ids []string) *Previews {
	p := &Previews{writes: make([]cmdutil.Write, len(ids)), index: make(map[string]int, len(ids))}
	for i, id := range ids {
		p.index[id] = i
	}
	return p
}

// Set keeps the write of id; each id has its own slot, so workers may set
// theirs at once.
func (p *Previews) Set(id string, w cmdutil.Write) { p.writes[p.index[id]] = w }

// Print shows each write the results did not fail for, in order, then on
// stderr how many would be done ("N alert(s) would be acknowledged") and
// what failed (an item that could not be read); it returns Failed's error.
func (p *Previews) Print(ios *iostreams.IOStreams, format string, results []Result, what, done string) error {
	n := 0
	for i, r := range results {
		if r.Err != nil {
			fmt.Fprintf(ios.ErrOut, "%s: %v\n", r.ID, r.Err)
			continue
		}
		if err := p.writes[i].Preview(ios.Out, format); err != nil {
			return err
		}
		n++
	}
	fmt.Fprintf(ios.ErrOut, "Dry run: %d %s(s) would be %s; nothing was sent.\n", n, what, done)
	return Failed(results, what+"s")
}
