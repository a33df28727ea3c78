package auth

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/httpx"
)

// authFailureWindow is how long a failed digest answer counts against
// the key or user it named (docs/server.md, Rate limits).
const authFailureWindow = time.Minute

// authFailures slows password guessing: once n digest answers naming one
// key or user failed within a minute, requests naming it are refused
// until that minute has passed. It counts on real time, as --rate-limit
// does, and only names the data knows, so it holds no more entries than
// there are keys and users.
type authFailures struct {
	n   int
	now func() time.Time

	mu  sync.Mutex
	per map[string][]time.Time // the last n failures of each name, oldest first
}

func newAuthFailures(n int) *authFailures {
	if n <= 0 {
		return nil
	}
	return &authFailures{n: n, now: time.Now, per: map[string][]time.Time{}}
}

// blocked reports whether requests naming name are refused, and for how
// many whole seconds more, at least 1.
func (a *authFailures) blocked(name string) (bool, int) {
	if a == nil {
		return false, 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	times := a.per[name]
	if len(times) < a.n {
		return false, 0
	}
	wait := times[len(times)-a.n].Add(authFailureWindow).Sub(a.now())
	if wait <= 0 {
		return false, 0
	}
	return true, max(1, int(math.Ceil(wait.Seconds())))
}

// failed counts a wrong digest answer naming name.
func (a *authFailures) failed(name string) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	times := append(a.per[name], a.now())
	if len(times) > a.n {
		times = append(times[:0], times[len(times)-a.n:]...)
	}
	a.per[name] = times
}

// refuseGuessing answers 429 RATE_LIMITED to a request naming a key or
// user whose answers failed too often.
func (a *authFailures) refuseGuessing(w http.ResponseWriter, name string, after int) {
	e := httpx.New(http.StatusTooManyRequests, "RATE_LIMITED",
		fmt.Sprintf("Too many failed authentications for %s: %d in a minute; retry after %d s.", name, a.n, after), name, a.n)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", strconv.Itoa(after))
	w.WriteHeader(e.Status())
	w.Write(rules.EncodeJSON(e.Body()))
}
