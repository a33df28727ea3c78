package alert

import (
	"time"

	"github.com/omctl/omctl/internal/store/fixture/fixturetest"
)

var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// sampleAlert is an alert as a GET answers it, links included.
const sampleAlert = fixturetest.CheckedAlert

func withMember(name, value string) string { return fixturetest.WithMember(name, value) }
