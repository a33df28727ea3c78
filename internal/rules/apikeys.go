package rules

import (
	"fmt"
	"net/netip"
	"strings"
	"unicode/utf8"

	"github.com/omctl/omctl/internal/api"
)

// accessListEntryBody is one entry of the body that adds to a key's
// access list.
func accessListEntryBody() Schema {
	return Schema{"ipAddress": Str().OrNull(), "cidrBlock": Str().OrNull()}
}

// AccessListEntry checks one entry of a request adding to an access
// list: exactly one of ipAddress and cidrBlock, a valid address or block.
// It returns the entry's canonical block (see AccessListKey).
func AccessListEntry(m map[string]any) (string, *Error) {
	if m == nil {
		return "", Invalidf("INVALID_JSON", "Received JSON is malformed: each access list entry must be an object.")
	}
	ip, cidr := m["ipAddress"], m["cidrBlock"]
	if ip == nil && cidr == nil {
		return "", errOneOfAddressOrBlock()
	}
	if ip == nil {
		return block(cidr)
	}
	canon, err := addressBlock(ip)
	if err != nil || cidr == nil {
		return canon, err
	}
	// Both, as the vendor's client sends an address: the block must be
	// the address's own /32 (/128), and the entry is the address's.
	if s, _ := cidr.(string); s != canon && !ownBlock(s, canon) {
		return "", Invalidf("INVALID_ATTRIBUTE",
			fmt.Sprintf("Invalid attribute cidrBlock specified: %v is not the block of ipAddress %v alone.", cidr, ip), "cidrBlock")
	}
	return canon, nil
}

// AccessListKey is the address block an access-list entry stands for, in
// canonical form, so that an address and its /32 (or /128) block are one
// entry: the block when the entry has one (as the API shows entries, with
// both fields), else the address. An IPv4 address written as IPv6
// (::ffff:10.0.0.1) is the IPv4 one, since that is how a caller's address
// is compared.
func AccessListKey(m map[string]any) (string, *Error) {
	if cidr := m["cidrBlock"]; cidr != nil && cidr != "" {
		return block(cidr)
	}
	if ip := m["ipAddress"]; ip != nil && ip != "" {
		return addressBlock(ip)
	}
	return "", errOneOfAddressOrBlock()
}

// ownBlock reports whether cidr is, written another way, the single-address
// block canon.
func ownBlock(cidr, canon string) bool {
	p, err := netip.ParsePrefix(cidr)
	if err != nil {
		return false
	}
	got, berr := block(cidr)
	return berr == nil && got == canon && p.Bits() == p.Addr().BitLen()
}

func addressBlock(ip any) (string, *Error) {
	s, ok := ip.(string)
	addr, err := netip.ParseAddr(s)
	if !ok || err != nil || addr.Zone() != "" {
		return "", Invalidf("INVALID_IP_ADDRESS_OR_CIDR_NOTATION", fmt.Sprintf("The address %v is not a valid IP address.", ip), ip)
	}
	addr = addr.Unmap()
	return netip.PrefixFrom(addr, addr.BitLen()).String(), nil
}

func block(cidr any) (string, *Error) {
	s, ok := cidr.(string)
	prefix, err := netip.ParsePrefix(s)
	if !ok || err != nil {
		return "", Invalidf("INVALID_IP_ADDRESS_OR_CIDR_NOTATION", fmt.Sprintf("The block %v is not valid CIDR notation.", cidr), cidr)
	}
	if a := prefix.Addr(); a.Is4In6() && prefix.Bits() >= 96 {
		prefix = netip.PrefixFrom(a.Unmap(), prefix.Bits()-96)
	}
	return prefix.Masked().String(), nil
}

// AccessListPathEntry reads the entry a path names: an IP address, or a
// CIDR block (its / sent as %2F), as its canonical block.
func AccessListPathEntry(entry string) (string, *Error) {
	var canon string
	var err *Error
	if strings.Contains(entry, "/") {
		canon, err = block(entry)
	} else {
		canon, err = addressBlock(entry)
	}
	if err != nil {
		return "", Invalidf("INVALID_IP_ADDRESS_OR_CIDR_NOTATION",
			fmt.Sprintf("%s is neither an IP address nor a CIDR block.", entry), entry)
	}
	return canon, nil
}

func errOneOfAddressOrBlock() *Error {
	return Invalidf("MISSING_ONE_OF_ATTRIBUTES", "Exactly one of the attributes ipAddress or cidrBlock must be specified.", "ipAddress", "cidrBlock")
}

// CheckAPIKeyDesc checks the description of a new API key: 1 to
// api.MaxAPIKeyDescription characters.
func CheckAPIKeyDesc(desc string) *Error {
	if n := utf8.RuneCountInString(desc); n < 1 || n > api.MaxAPIKeyDescription {
		return Invalidf("INVALID_API_KEY_DESC",
			fmt.Sprintf("The description must be 1 to %d characters long; it has %d.", api.MaxAPIKeyDescription, n), n)
	}
	return nil
}

// SplitAPIKeyRoles sorts the roles asked for a new key into those a key
// of a project may have and the others. A key needs at least one of the
// first and none of the second.
func SplitAPIKeyRoles(roles []string) (valid, invalid []string) {
	for _, r := range roles {
		if api.OneOf(r, api.ProjectRoles) {
			valid = append(valid, r)
		} else {
			invalid = append(invalid, r)
		}
	}
	return valid, invalid
}

// MaxAccessListEntries bounds one key's access list (docs/server.md).
const MaxAccessListEntries = 1000

// MaxAPIKeysPerOrg is how many API keys an organization holds at most.
const MaxAPIKeysPerOrg = 500

// CheckAPIKey checks the body that creates an API key in a project, and
// returns its description and the roles it asks for.
func CheckAPIKey(body Doc) (desc string, roles []string, err *Error) {
	if err := apiKeyBody().Check(body, "", nil); err != nil {
		return "", nil, err
	}
	desc, _ = body["desc"].(string)
	if err := CheckAPIKeyDesc(desc); err != nil {
		return "", nil, err
	}
	valid, invalid := SplitAPIKeyRoles(StringList(body["roles"]))
	if len(valid) == 0 {
		return "", nil, Invalidf("MISSING_API_KEY_ROLES",
			fmt.Sprintf("An API key needs at least one valid role: %s.", strings.Join(api.ProjectRoles, ", ")))
	}
	if len(invalid) > 0 {
		return "", nil, Invalidf("INVALID_ENUM_VALUE",
			fmt.Sprintf("An invalid enumeration value %s was specified for roles; allowed values are %s.", invalid[0], strings.Join(api.ProjectRoles, ", ")),
			invalid[0], "roles")
	}
	return desc, valid, nil
}

// AccessListEntries checks the body that adds to an access list: an
// array of entries, each valid, returned with their canonical blocks.
func AccessListEntries(v any) ([]any, []string, *Error) {
	entries, ok := v.([]any)
	if !ok {
		return nil, nil, Invalidf("INVALID_JSON", "Received JSON is malformed: the body must be an array of access list entries, even for one entry.")
	}
	if len(entries) == 0 {
		return nil, nil, Invalidf("MISSING_ONE_OF_ATTRIBUTES", "The array must hold at least one entry with ipAddress or cidrBlock.", "ipAddress", "cidrBlock")
	}
	sch := accessListEntryBody()
	canon := make([]string, len(entries))
	for i, e := range entries {
		m, isObj := e.(map[string]any)
		if !isObj {
			return nil, nil, Invalidf("INVALID_JSON", fmt.Sprintf("Received JSON is malformed: entry %d must be an object.", i))
		}
		if err := sch.Check(m, fmt.Sprintf("[%d].", i), nil); err != nil {
			return nil, nil, err
		}
		var err *Error
		if canon[i], err = AccessListEntry(m); err != nil {
			return nil, nil, err
		}
	}
	return entries, canon, nil
}
