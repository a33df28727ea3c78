package store

import (
	"time"

	"github.com/omctl/omctl/internal/store/model"
	"github.com/omctl/omctl/internal/store/statelog"
)

// encodeBatch encodes what changed (under the data lock), with the clock
// to resume.
func encodeBatch(recs []model.Change, replaceAll bool, clock *Clock) (*statelog.Batch, error) {
	b := &statelog.Batch{ReplaceAll: replaceAll, Records: make([]statelog.Record, 0, len(recs))}
	if clock.Virtual() {
		b.Meta = map[string]string{metaClockKey: clock.Now().Format(time.RFC3339Nano)}
	} else if d := clock.Offset(); d != 0 {
		b.Meta = map[string]string{metaOffsetKey: d.String()}
	}
	for _, r := range recs {
		value, err := model.Encode(r)
		if err != nil {
			return nil, err
		}
		b.Records = append(b.Records, statelog.Record{Kind: r.Kind, Key: r.Key, Value: value})
	}
	return b, nil
}
