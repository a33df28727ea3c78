package apikeys

import (
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/config"
)

// profileSaver writes a new key to a profile that did not exist, through
// the config file's own save (mode 0600, replaced atomically).
type profileSaver struct {
	name, path, baseURL, orgID string
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
	baseURL, err := opts.BaseURL()
	if err != nil {
		return nil, err
	}
	s := &profileSaver{name: name, path: path, baseURL: baseURL}
	if opts.OrgID != nil {
		s.orgID, _ = opts.OrgID() // optional: the profile works without it
	}
	return s, nil
}

// save writes the profile, reading the file again so that a change made
// meanwhile is kept, and returns the file's path.
func (s *profileSaver) save(key api.APIKey, projectID string) (string, error) {
	file, err := config.Load(s.path)
	if err != nil {
		return "", err
	}
	if _, exists := file.Profiles[s.name]; exists {
		return "", cmdutil.FlagErrorf("the profile %s appeared meanwhile", s.name)
	}
	file.Profiles[s.name] = config.Profile{BaseURL: s.baseURL, PublicKey: key.PublicKey, PrivateKey: key.PrivateKey,
		ProjectID: projectID, OrgID: s.orgID}
	if err := file.Save(s.path); err != nil {
		return "", err
	}
	return s.path, nil
}
