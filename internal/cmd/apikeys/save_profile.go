package apikeys

import (
	"io"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/config"
)

// profileSaver writes a new key to a profile that did not exist, its
// private key through the credential store (the OS keyring, else the
// 0600 config file, as config set does).
type profileSaver struct {
	name, path, orgID string
	conn              config.Profile
	notice            io.Writer
}

// newProfileSaver checks, before the key is created, that the profile can
// be written: a new name, a config file that loads, a base URL.
func newProfileSaver(opts *CreateOptions) (*profileSaver, error) {
	name := opts.SaveProfile
	if strings.TrimSpace(name) != name || strings.ContainsAny(name, " \t\n\"'[]") {
		return nil, cmdutil.FlagErrorf("invalid --save-profile %q: a profile name has no spaces, quotes or brackets", name)
	}
	path, err := opts.ConfigPath()
	if err != nil {
		return nil, err
	}
	file, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	if _, exists := file.Profiles[name]; exists {
		return nil, cmdutil.FlagErrorf("--save-profile %s: the profile exists already (profiles: %s); choose a new name, so no key is overwritten", name, file.KnownProfiles())
	}
	conn, err := opts.Connection()
	if err != nil {
		return nil, err
	}
	s := &profileSaver{name: name, path: path, conn: conn, notice: opts.IO.ErrOut}
	if opts.OrgID != nil {
		s.orgID, _ = opts.OrgID() // optional: the profile works without it
	}
	return s, nil
}

// save writes the profile, reading the file again so that a change made
// meanwhile is kept, and says where the private key went.
func (s *profileSaver) save(key api.APIKey, projectID string) (config.Storage, error) {
	file, err := config.Load(s.path)
	if err != nil {
		return config.StoredNowhere, err
	}
	if _, exists := file.Profiles[s.name]; exists {
		return config.StoredNowhere, cmdutil.FlagErrorf("the profile %s appeared meanwhile", s.name)
	}
	prof := s.conn
	prof.PublicKey, prof.PrivateKey, prof.ProjectID, prof.OrgID = key.PublicKey, key.PrivateKey, projectID, s.orgID
	return config.SaveProfile(s.path, s.name, prof, &config.Credentials{Path: s.path, Notice: s.notice})
}
