package server

import (
	"fmt"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store"
)

// renderConfig shows an alert configuration: the threshold kind that fits
// its event type, and each notification with only its kind's fields, the
// secrets redacted (docs/api.md, Notification).
func (c *reqCtx) renderConfig(d doc, self string) doc {
	out := make(doc, len(d))
	for k, v := range d {
		out[k] = v
	}
	if out["eventTypeName"] == api.EventOutsideMetricThreshold {
		delete(out, "threshold")
	} else {
		delete(out, "metricThreshold")
	}
	if notes, ok := d["notifications"].([]any); ok {
		rendered := make([]any, len(notes))
		for i, n := range notes {
			m, _ := n.(map[string]any)
			rendered[i] = rules.RedactNotification(m)
		}
		out["notifications"] = rendered
	}
	return withLinks(out, self)
}

func (s *Server) listAlertConfigs(c *reqCtx) *apiError {
	project, err := c.project(readMonitoring)
	if err != nil {
		return err
	}
	o := c.st.AlertConfigs(project)
	if o == nil {
		o = store.NewOrdered()
	}
	return c.listConfigs(o, "groups", project, "alertConfigs")
}

// listConfigs writes a page of the configurations in o, whose self links
// are under path.
func (c *reqCtx) listConfigs(o *store.Ordered, path ...string) *apiError {
	if _, err := c.boolQuery("backupJobsEnabledOnly", true); err != nil {
		return err
	}
	p, err := c.page()
	if err != nil {
		return err
	}
	docs, total := o.Page(p)
	items := make([]doc, len(docs))
	for i, d := range docs {
		items[i] = c.renderConfig(d, c.resourceHref(append(path, d["id"].(string))...))
	}
	c.list(items, total, p)
	return nil
}

func (s *Server) findAlertConfig(c *reqCtx, need access) (string, doc, *apiError) {
	project, err := c.project(need)
	if err != nil {
		return "", nil, err
	}
	id := c.r.PathValue("config_id")
	if !api.IsObjectID(id) {
		return "", nil, errNotFound("INVALID_ALERT_CONFIG_ID", fmt.Sprintf("An invalid alert configuration ID %s was specified.", id), id)
	}
	var d doc
	if o := c.st.AlertConfigs(project); o != nil {
		d = o.Get(id)
	}
	if d == nil {
		return "", nil, errNotFound("ALERT_CONFIG_NOT_FOUND", fmt.Sprintf("No alert configuration with ID %s exists in group %s.", id, project), id, project)
	}
	return project, d, nil
}

func (s *Server) getAlertConfig(c *reqCtx) *apiError {
	project, d, err := s.findAlertConfig(c, readMonitoring)
	if err != nil {
		return err
	}
	c.ok(c.renderConfig(d, c.resourceHref("groups", project, "alertConfigs", d["id"].(string))))
	return nil
}

// putAlertConfig replaces a configuration; leaving out `enabled` disables it.
func (s *Server) putAlertConfig(c *reqCtx) *apiError {
	project, old, err := s.findAlertConfig(c, writeMonitoring)
	if err != nil {
		return err
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	id := old["id"].(string)
	if err := rules.CheckAlertConfig(body, doc{"id": id, "groupId": project}); err != nil {
		return fromRule(err)
	}
	rules.KeepRedactedSecrets(body, old)
	if _, ok := body["enabled"]; !ok {
		body["enabled"] = false
	}
	body["id"], body["groupId"] = id, project
	if created, ok := old["created"]; ok {
		body["created"] = created
	}
	body["updated"] = rules.FormatTime(s.clock.Now())
	c.st.ReplaceAlertConfig(project, body, s.clock.Now())
	c.ok(c.renderConfig(body, c.resourceHref("groups", project, "alertConfigs", id)))
	return nil
}

// createAlertConfig adds a configuration to a project: the body of a
// replacement, with the id and times the server gives it. A groupId equal
// to the path's is accepted; an id is not, the server chooses it.
func (s *Server) createAlertConfig(c *reqCtx) *apiError {
	project, err := c.project(writeMonitoring)
	if err != nil {
		return err
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	if err := rules.CheckAlertConfig(body, doc{"groupId": project}); err != nil {
		return fromRule(err)
	}
	if _, ok := body["enabled"]; !ok {
		body["enabled"] = false
	}
	id := store.NewObjectID()
	now := rules.FormatTime(s.clock.Now())
	body["id"], body["groupId"], body["created"], body["updated"] = id, project, now, now
	c.st.CreateAlertConfig(project, body)
	c.ok(c.renderConfig(body, c.resourceHref("groups", project, "alertConfigs", id)))
	return nil
}

// deleteAlertConfig removes a configuration; its active alerts are
// cancelled. The answer is an empty object.
func (s *Server) deleteAlertConfig(c *reqCtx) *apiError {
	project, d, err := s.findAlertConfig(c, writeMonitoring)
	if err != nil {
		return err
	}
	c.st.DeleteAlertConfig(project, d["id"].(string), s.clock.Now())
	c.ok(doc{})
	return nil
}

func (s *Server) enableAlertConfig(c *reqCtx) *apiError {
	project, d, err := s.findAlertConfig(c, writeMonitoring)
	if err != nil {
		return err
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	id := d["id"].(string)
	if err := rules.EnableAlertConfigBody().Check(body, "", doc{"id": id, "groupId": project}); err != nil {
		return fromRule(err)
	}
	c.st.SetConfigEnabled("alertConfigs", d, body["enabled"] == true, s.clock.Now())
	c.ok(c.renderConfig(d, c.resourceHref("groups", project, "alertConfigs", id)))
	return nil
}

func (s *Server) listGlobalAlertConfigs(c *reqCtx) *apiError {
	if err := c.global(readGlobalAlerts); err != nil {
		return err
	}
	return c.listConfigs(c.st.GlobalAlertConfigs(), "globalAlertConfigs")
}

func (s *Server) findGlobalConfig(c *reqCtx, need access) (doc, *apiError) {
	if err := c.global(need); err != nil {
		return nil, err
	}
	id := c.r.PathValue("config_id")
	d := c.st.GlobalAlertConfigs().Get(id)
	if d == nil {
		return nil, errNotFound("GLOBAL_ALERT_CONFIG_NOT_FOUND", fmt.Sprintf("No global alert configuration with ID %s exists.", id), id)
	}
	return d, nil
}

func (s *Server) getGlobalAlertConfig(c *reqCtx) *apiError {
	d, err := s.findGlobalConfig(c, readGlobalAlerts)
	if err != nil {
		return err
	}
	c.ok(c.renderConfig(d, c.resourceHref("globalAlertConfigs", d["id"].(string))))
	return nil
}

// enableGlobalAlertConfig switches a global configuration on or off (endpoint
// 9). The other fields of a configuration may be sent back; they change nothing.
func (s *Server) enableGlobalAlertConfig(c *reqCtx) *apiError {
	d, err := s.findGlobalConfig(c, writeGlobalAlerts)
	if err != nil {
		return err
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	if err := rules.EnableGlobalAlertConfigBody().Check(body, "", doc{"id": d["id"]}); err != nil {
		return fromRule(err)
	}
	c.st.SetConfigEnabled("globalAlertConfigs", d, body["enabled"] == true, s.clock.Now())
	c.ok(c.renderConfig(d, c.resourceHref("globalAlertConfigs", d["id"].(string))))
	return nil
}
