package server

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/handlers"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/engine"
	"github.com/omctl/omctl/internal/store/model"
)

// controlHandlers pairs every test control of internal/api but GetHealth
// (served without credentials, see routes) with its handler, which bears
// the control's name, and how it is served. Controls are only for a
// GLOBAL_OWNER, and are neither journaled, rate limited nor faulted;
// those of the server's own state (journal, faults) run without the data
// lock; those that move time or report events answer once the first
// attempt of every webhook they caused is done.
func (s *Server) controlHandlers() map[api.Endpoint]handling {
	return map[api.Endpoint]handling{
		api.ResetData:         {h: s.resetData, control: true},
		api.GetClock:          {h: s.getClock, control: true},
		api.MoveClock:         {h: s.moveClock, control: true, unlocked: true},
		api.ReportEvents:      {h: s.reportEvents, control: true, wait: true},
		api.ListNotifications: {h: s.listNotifications, control: true},
		api.ListRequests:      {h: s.listRequests, control: true, unlocked: true},
		api.ClearRequests:     {h: s.clearRequests, control: true, unlocked: true},
		api.ListFaults:        {h: s.listFaults, control: true, unlocked: true},
		api.AddFault:          {h: s.addFault, control: true, unlocked: true},
		api.ClearFaults:       {h: s.clearFaults, control: true, unlocked: true},
		api.RemoveFault:       {h: s.removeFault, control: true, unlocked: true},
		api.DumpFixtures:      {h: s.dumpFixtures, control: true, unlocked: true},
		api.GetUI:             {h: s.getUI, control: true, unlocked: true},
		api.StreamEvents:      {h: s.streamEvents, control: true, unlocked: true},
	}
}

// getHealth answers api.GetHealth, without credentials: a job waiting for
// the server to be up needs none.
func (s *Server) getHealth(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"status":"ok"}`+"\n")
}

// onlyQuery refuses query parameters a control does not take, besides
// paging, pretty and envelope: a misspelt filter is an error, not ignored.
func onlyQuery(c *handlers.Ctx, names ...string) error {
	for _, k := range rules.SortedKeys(c.R.URL.Query()) {
		if !slices.Contains(names, k) && !slices.Contains([]string{"pageNum", "itemsPerPage", "pretty", "envelope"}, k) {
			allowed := append(names, "pageNum", "itemsPerPage", "pretty", "envelope")
			return httpx.InvalidQuery(k, c.R.URL.Query().Get(k), "this control takes "+strings.Join(allowed, ", "))
		}
	}
	return nil
}

// resetData puts the data back to its seed (api.ResetData).
func (s *Server) resetData(c *handlers.Ctx) error {
	s.resetLocked(c.Tx)
	c.WriteJSON(http.StatusOK, map[string]any{"reset": true, "now": rules.FormatTime(s.clock.Now())})
	return nil
}

// getClock shows the server's clock (api.GetClock).
func (s *Server) getClock(c *handlers.Ctx) error {
	c.WriteJSON(http.StatusOK, api.Clock{Now: rules.FormatTime(s.clock.Now())})
	return nil
}

// moveClock advances or sets the clock (api.MoveClock); everything due by
// the new time happens before the answer. The move is made in slices,
// each under the data lock and committed on its own, with the clock at
// the instant the slice reached: other requests are served between them,
// and see the engine's work done up to the clock's time. Moves run one at
// a time. The answer waits for the first attempt of every webhook the
// move queued.
func (s *Server) moveClock(c *handlers.Ctx) error {
	// Whatever the answer, it may come long after the request (behind
	// another move, say): it gets the write timeout from when it is ready.
	defer c.KeepWriting()
	body, err := c.ReadObject()
	if err != nil {
		return err
	}
	if err := (rules.Schema{"advance": rules.Str(), "set": rules.Timestamp()}).Check(body, "", nil); err != nil {
		return err
	}
	s.moves.Lock()
	defer s.moves.Unlock()
	target := s.clock.Now()
	if v, ok := body["advance"].(string); ok {
		d, perr := time.ParseDuration(v)
		if perr != nil || d < 0 {
			return httpx.BadRequest("INVALID_JSON_ATTRIBUTE", fmt.Sprintf("advance %q is not a positive duration such as 15m or 2h.", v), "advance")
		}
		t, err := s.clock.Target(d, time.Time{})
		if err != nil {
			return httpx.BadRequest("INVALID_JSON_ATTRIBUTE", fmt.Sprintf("advance %s: %v.", v, err), "advance")
		}
		target = t
	}
	if v, ok := body["set"].(string); ok {
		at, _ := rules.ParseTimestamp(v)
		t, err := s.clock.Target(0, at)
		if err == nil && at.Before(target) {
			err = fmt.Errorf("%s is before %s, where advance moves the clock: the clock only moves forward", rules.FormatTime(at), rules.FormatTime(target))
		}
		if err != nil {
			return httpx.BadRequest("INVALID_JSON_ATTRIBUTE", fmt.Sprintf("set: %v.", err), "set")
		}
		target = t
	}
	c.LastBase()
	from := s.clock.Now()
	s.moveFrom.Store(&from)
	defer s.moveFrom.Store(nil)
	// Whether it went all the way or stopped, the stream says where the
	// clock is now.
	defer func() { s.streamClock(s.clock.Now()) }()
	var firstAttempts sync.WaitGroup
	for done := false; !done; {
		began := time.Now()
		err := s.change(func(st *engine.Tx) error {
			var reached time.Time
			reached, done = st.RunSlice(target, time.Now().Add(clockSlice))
			s.clock.Set(reached)
			return nil
		}, &firstAttempts)
		if a, _ := httpx.Answer(err); err != nil && a.Status() == http.StatusInternalServerError {
			return moveStopped(s.clock.Now(), target, err)
		}
		if err != nil {
			return err
		}
		c.KeepWriting() // a year's move can take longer than the write timeout
		if !done {
			// Those waiting for the data get in, and the move takes at
			// most about half of the time of one core: on a small machine
			// its work would otherwise slow every other request.
			time.Sleep(min(time.Since(began), 2*clockSlice))
		}
	}
	firstAttempts.Wait()
	c.KeepWriting()
	c.WriteJSON(http.StatusOK, api.Clock{Now: rules.FormatTime(s.clock.Now())})
	return nil
}

// moveStopped is the answer to a move whose slice failed (a full disk,
// say; cause says what storeFailed made of it): the slices before it are
// saved, and seen already, so the clock stays where they took it. Sending
// the move again as advance would overshoot; the answer says what set
// finishes it.
func moveStopped(at, target time.Time, cause error) error {
	reached, want := rules.FormatTime(at), rules.FormatTime(target)
	a, _ := httpx.Answer(cause)
	return httpx.New(a.Status(), a.Code(),
		fmt.Sprintf(`The clock move stopped at %s, short of %s. %s Send {"set": %q} to finish it.`, reached, want, a.Detail(), want),
		reached, want)
}

// nonceClock is the time digest nonces are issued and checked at: the
// server's clock, but for a move in progress its start, so that a client
// answering a challenge between two slices is not told its nonce went
// stale by a day the slice just moved (docs/server.md, Notification log).
func (s *Server) nonceClock() time.Time {
	if from := s.moveFrom.Load(); from != nil {
		return *from
	}
	return s.clock.Now()
}

// clockSlice is how long a slice of a clock move works under the data
// lock (its commit comes on top): short enough that a request waits little
// behind it, long enough that a year's move takes few commits. A write
// can wait for two batches, the one being committed and its own, each
// with a slice and two syncs of the disk: at 10 ms, batches of 20-42 ms
// took the soak's writes past 100 ms (docs/performance.md).
const clockSlice = 5 * time.Millisecond

func authorizeGlobalOwner(p *model.Principal) error {
	for _, r := range p.Roles {
		if r.Org == "" && r.Group == "" && r.Name == "GLOBAL_OWNER" {
			return nil
		}
	}
	return handlers.Unauthorized()
}
