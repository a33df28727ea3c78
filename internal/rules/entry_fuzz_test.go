package rules

import (
	"net/netip"
	"testing"
)

// FuzzAccessListPathEntry: whatever a path's {entry} holds, it is refused
// with the entry's error code or read as a canonical block that reads back
// as itself, an address standing for its /32 (/128) block.
func FuzzAccessListPathEntry(f *testing.F) {
	for _, seed := range []string{"192.0.2.7", "192.0.2.7/32", "10.1.2.3/16", "::1", "::ffff:10.0.0.1", "::ffff:10.0.0.0/104",
		"2001:db8::/32", "fe80::1%eth0", "10.0.0.0/33", "", "/", "1.2.3.4/", "a/b", "999.1.1.1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		canon, err := AccessListPathEntry(entry)
		if err != nil {
			if err.Code != "INVALID_IP_ADDRESS_OR_CIDR_NOTATION" {
				t.Fatalf("%q: code %s", entry, err.Code)
			}
			return
		}
		p, perr := netip.ParsePrefix(canon)
		if perr != nil || p.Masked() != p {
			t.Fatalf("%q: canonical %q is not a masked block", entry, canon)
		}
		again, err := AccessListPathEntry(canon)
		if err != nil || again != canon {
			t.Fatalf("%q: %q reads back as %q, %v", entry, canon, again, err)
		}
	})
}
