package model

import (
	"time"

	"github.com/omctl/omctl/internal/store/fixture"
)

// AddKeys adds keys to the data, all or none (see fixture.KeyDocs).
func (s *State) AddKeys(keys []fixture.Key, now time.Time) error {
	org, project := "", ""
	if len(s.orgOrder) > 0 {
		org = s.orgOrder[0]
	}
	for _, id := range s.projectOrder {
		if s.projects[id].OrgID == org {
			project = id
			break
		}
	}
	docs, err := fixture.KeyDocs(keys, org, project, func(name string) (doc, string) {
		p := s.principals[name]
		switch {
		case p == nil:
			return nil, ""
		case p.Key == nil:
			return nil, "a user of the data (as its username)"
		}
		return p.Key.raw(), "API key " + p.Key.ID + " of the data"
	})
	if err != nil {
		return err
	}
	for _, d := range docs {
		s.addAPIKey(d, now)
	}
	return nil
}
