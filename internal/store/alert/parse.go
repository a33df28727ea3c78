package alert

import (
	"fmt"
	"runtime"
	"sync"
)

// Holder is what the bytes of queued alerts point into (a block of a
// file read in blocks): held by each job that reads from it, and
// released when that job is done, so it can be used again.
type Holder interface {
	Hold()
	Release()
}

// Parser parses alerts on every processor, in chunks, keeping their
// order; an error names the first bad item.
type Parser struct {
	jobs   chan *alertJob
	queued []*alertJob
	cur    *alertJob
	n      int
	wg     sync.WaitGroup
}

type alertJob struct {
	first int
	raws  [][]byte
	blk   Holder // what raws point into, if anything, released once they are read
	out   []*Doc
	err   error
}

const alertChunk = 2048

func NewParser() *Parser {
	p := &Parser{jobs: make(chan *alertJob), cur: &alertJob{}}
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			ar := &arena{}
			for j := range p.jobs {
				j.out = make([]*Doc, len(j.raws))
				for i, raw := range j.raws {
					a, err := parseAlert(raw, ar)
					if err != nil {
						j.err = fmt.Errorf("[%d]: %s", j.first+i, err.Rule())
						break
					}
					j.out[i] = a
				}
				j.raws = nil
				if j.blk != nil {
					j.blk.Release()
					j.blk = nil
				}
			}
		}()
	}
	return p
}

// Add queues one alert; raw must not change afterwards.
func (p *Parser) Add(raw []byte) {
	p.cur.raws = append(p.cur.raws, raw)
	p.n++
	if len(p.cur.raws) == alertChunk {
		p.send()
	}
}

// AddFrom queues one alert, a slice of blk, which must not change until
// the job holding the alert lets go of it.
func (p *Parser) AddFrom(raw []byte, blk Holder) {
	if p.cur.blk != blk {
		if len(p.cur.raws) > 0 {
			p.send()
		}
		p.cur.blk = blk
		blk.Hold()
	}
	p.Add(raw)
}

func (p *Parser) send() {
	p.queued = append(p.queued, p.cur)
	p.jobs <- p.cur
	p.cur = &alertJob{first: p.n}
}

// Finish waits for the workers and returns the alerts in order.
func (p *Parser) Finish() ([]*Doc, error) {
	if len(p.cur.raws) > 0 {
		p.send()
	}
	close(p.jobs)
	p.wg.Wait()
	out := make([]*Doc, 0, p.n)
	for _, j := range p.queued {
		if j.err != nil {
			return nil, j.err
		}
		out = append(out, j.out...)
	}
	return out, nil
}
