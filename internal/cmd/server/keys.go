package server

import (
	"fmt"
	"io"
	"strings"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/store/fixture"
)

// parseKeys reads the --key values (or OMCTL_SERVER_KEYS). A message
// names a key by its public part and never shows the private one.
func parseKeys(opts *Options) ([]fixture.Key, error) {
	var keys []fixture.Key
	for i, raw := range opts.Keys {
		k, err := parseKey(raw, opts.IO.ErrOut)
		if err == nil {
			err = k.Check()
		}
		if err != nil {
			where := opts.name("key")
			if _, ok := opts.fromEnv["key"]; ok {
				where = fmt.Sprintf("%s (entry %d)", where, i+1)
			}
			return nil, cmdutil.FlagErrorf("invalid %s: %v", where, err)
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// parseKey reads PUBLIC:PRIVATE[:ROLE[,ROLE...]]. A PRIVATE of @FILE is
// read from FILE (its first line, as a mounted secret holds it), so that
// the secret is on no command line and in no variable; warn is told when
// the file is readable by others.
func parseKey(raw string, warn io.Writer) (fixture.Key, error) {
	public, rest, ok := strings.Cut(raw, ":")
	switch {
	case !ok: // the whole value may be a secret: it is not shown
		return fixture.Key{}, fmt.Errorf("a key has no ':': want PUBLIC:PRIVATE[:ROLE[,ROLE...]]")
	case public == "":
		return fixture.Key{}, fmt.Errorf("the public key is empty: want PUBLIC:PRIVATE[:ROLE[,ROLE...]]")
	}
	private, roles, _ := strings.Cut(rest, ":")
	k := fixture.Key{PublicKey: public, PrivateKey: private}
	if file, isFile := strings.CutPrefix(private, "@"); isFile {
		key, err := config.ReadKeyFile(file, warn)
		if err != nil {
			return fixture.Key{}, fmt.Errorf("key %s: %v", public, err)
		}
		k.PrivateKey = key
	}
	if k.PrivateKey == "" {
		return fixture.Key{}, fmt.Errorf("key %s: the private key is empty: want PUBLIC:PRIVATE[:ROLE[,ROLE...]]", public)
	}
	for _, r := range strings.Split(roles, ",") {
		if r = strings.TrimSpace(r); r != "" {
			k.Roles = append(k.Roles, strings.ToUpper(r))
		}
	}
	return k, nil
}
