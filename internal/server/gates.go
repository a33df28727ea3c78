package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"

	"github.com/omctl/omctl/internal/server/handlers"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/engine"
)

// checkAccessList refuses a key used from outside its access list and
// counts the use of the entry that let it in (a change, saved as any other).
func (s *Server) checkAccessList(c *handlers.Ctx) error {
	if c.Caller.Key == nil {
		return nil
	}
	host, _, err := net.SplitHostPort(c.R.RemoteAddr)
	if err != nil {
		host = c.R.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return httpx.New(http.StatusForbidden, "IP_ADDRESS_NOT_ON_ACCESS_LIST", "The caller's address cannot be read.")
	}
	addr = addr.Unmap()
	if in, _ := s.store.SignIn(c.Caller.Name); in.Unlisted {
		c.Caller = in.Principal // no list to check, nothing to count
		return nil
	}
	return s.withData(func(st *engine.Tx) error {
		// The data may have been reset since the caller was authenticated.
		p := st.Principal(c.Caller.Name)
		if p == nil || p.Key == nil {
			return handlers.Unauthorized()
		}
		c.Caller = p
		k := p.Key
		if !st.UseAccessList(k, addr, s.clock.Now()) {
			return httpx.New(http.StatusForbidden, "IP_ADDRESS_NOT_ON_ACCESS_LIST",
				fmt.Sprintf("IP address %s is not allowed to access this resource.", addr), addr.String())
		}
		return nil
	})
}
