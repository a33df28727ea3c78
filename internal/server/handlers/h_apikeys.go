package handlers

import (
	"fmt"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/model"
)

// renderKey shows an API key with its private key masked, unless whole
// (only in the answer to its creation: docs/api.md, API key).
func (c *Ctx) renderKey(k *model.APIKey, whole bool) doc {
	out := k.Members()
	if !whole {
		out["privateKey"] = redactPrivateKey(k.Principal.Secret)
	}
	return withLinks(out, c.resourceHref("orgs", firstOrg(k), "apiKeys", k.ID))
}

func redactPrivateKey(s string) string {
	if len(s) <= 4 {
		return "****"
	}
	return "********-****-****-" + strings.Repeat("*", 8) + s[len(s)-4:]
}

func firstOrg(k *model.APIKey) string {
	orgs := rules.SortedKeys(k.Orgs)
	if len(orgs) == 0 {
		return ""
	}
	return orgs[0]
}

func (s *Handlers) createAPIKey(c *Ctx) error {
	project, err := c.project(createAPIKey)
	if err != nil {
		return err
	}
	body, err := c.ReadObject()
	if err != nil {
		return err
	}
	k, err := c.St.PostAPIKey(project, body, s.now())
	if err != nil {
		return err
	}
	c.ok(c.renderKey(k, true))
	return nil
}

// orgOfKeys checks the {org_id} of a path to its keys: its form and
// existence, then that the caller manages its keys.
func (c *Ctx) orgOfKeys() (string, error) {
	org := c.R.PathValue("org_id")
	if !api.IsObjectID(org) || c.St.Org(org) == nil {
		return "", httpx.NotFound("ORG_NOT_FOUND", fmt.Sprintf("No organization with ID %s exists.", org), org)
	}
	if err := authorize(c.Caller, manageAccessList, "", org); err != nil {
		return "", err
	}
	return org, nil
}

func (s *Handlers) findKeyOfOrg(c *Ctx) (string, *model.APIKey, error) {
	org, err := c.orgOfKeys()
	if err != nil {
		return "", nil, err
	}
	id := c.R.PathValue("key_id")
	k := c.St.APIKey(id)
	if k == nil || !k.Orgs[org] {
		return "", nil, httpx.NotFound("API_KEY_NOT_FOUND", fmt.Sprintf("No API key with ID %s exists in organization %s.", id, org), id, org)
	}
	return org, k, nil
}

// addAccessList adds entries not already present; the list is never replaced.
func (s *Handlers) addAccessList(c *Ctx) error {
	org, k, err := s.findKeyOfOrg(c)
	if err != nil {
		return err
	}
	v, err := c.ReadBody()
	if err != nil {
		return err
	}
	entries, canon, rerr := rules.AccessListEntries(v)
	if rerr != nil {
		return rerr
	}
	if rerr := c.St.AddAccessEntries(k, canon, entries, s.now()); rerr != nil {
		return rerr
	}
	return s.writeAccessList(c, org, k)
}

func (s *Handlers) listAccessList(c *Ctx) error {
	org, k, err := s.findKeyOfOrg(c)
	if err != nil {
		return err
	}
	return s.writeAccessList(c, org, k)
}

func (s *Handlers) writeAccessList(c *Ctx, org string, k *model.APIKey) error {
	p, err := c.Page()
	if err != nil {
		return err
	}
	start := min(p.Offset(), len(k.AccessList))
	end := min(start+p.Size, len(k.AccessList))
	items := make([]doc, 0, end-start)
	for _, e := range k.AccessList[start:end] {
		items = append(items, c.renderAccessEntry(org, k, e))
	}
	c.list(items, len(k.AccessList), p)
	return nil
}

// listAPIKeys lists an organization's keys, private keys masked.
func (s *Handlers) listAPIKeys(c *Ctx) error {
	org, err := c.orgOfKeys()
	if err != nil {
		return err
	}
	p, _, err := c.listQuery()
	if err != nil {
		return err
	}
	keys, total := pageOf(c.St.OrgAPIKeys(org), p)
	items := make([]doc, len(keys))
	for i, k := range keys {
		items[i] = c.renderOrgKey(org, k)
	}
	c.list(items, total, p)
	return nil
}

func (s *Handlers) getAPIKey(c *Ctx) error {
	org, k, err := s.findKeyOfOrg(c)
	if err != nil {
		return err
	}
	c.ok(c.renderOrgKey(org, k))
	return nil
}

// renderOrgKey shows a key, masked, as one of org's.
func (c *Ctx) renderOrgKey(org string, k *model.APIKey) doc {
	out := c.renderKey(k, false)
	return withLinks(out, c.resourceHref("orgs", org, "apiKeys", k.ID))
}

// findAccessEntry finds the key of the path, then its entry {entry}: an
// address or a CIDR block naming the entry that stands for the same block.
func (s *Handlers) findAccessEntry(c *Ctx) (string, *model.APIKey, string, *model.AccessListEntry, error) {
	org, k, err := s.findKeyOfOrg(c)
	if err != nil {
		return "", nil, "", nil, err
	}
	entry := c.R.PathValue("entry")
	canon, rerr := rules.AccessListPathEntry(entry)
	if rerr != nil {
		return "", nil, "", nil, rerr
	}
	e := k.AccessEntry(canon)
	if e == nil {
		return "", nil, "", nil, httpx.NotFound("ACCESS_LIST_ENTRY_NOT_FOUND",
			fmt.Sprintf("No access list entry %s exists for API key %s.", entry, k.ID), entry, k.ID)
	}
	return org, k, canon, e, nil
}

func (s *Handlers) getAccessListEntry(c *Ctx) error {
	org, k, _, e, err := s.findAccessEntry(c)
	if err != nil {
		return err
	}
	c.ok(c.renderAccessEntry(org, k, e))
	return nil
}

// deleteAccessListEntry removes an entry; the next request is checked
// against the list without it.
func (s *Handlers) deleteAccessListEntry(c *Ctx) error {
	_, k, canon, _, err := s.findAccessEntry(c)
	if err != nil {
		return err
	}
	c.St.RemoveAccessEntry(k, canon)
	c.ok(doc{})
	return nil
}

func (c *Ctx) renderAccessEntry(org string, k *model.APIKey, e *model.AccessListEntry) doc {
	return withLinks(e.Members(), c.resourceHref("orgs", org, "apiKeys", k.ID, "accessList", e.Address()))
}
