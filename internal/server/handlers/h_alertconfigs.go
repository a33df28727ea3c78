package handlers

import (
	"fmt"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/model"
)

// renderConfig shows an alert configuration: the threshold kind that fits
// its event type, and each notification with only its kind's fields, the
// secrets redacted (docs/api.md, Notification).
func (c *Ctx) renderConfig(cfg *model.AlertConfig, self string) doc {
	out := cfg.Members()
	if out["matchers"] == nil {
		out["matchers"] = []any{} // in every answer, as the real ones (docs/api.md)
	}
	if cfg.EventTypeName == api.EventOutsideMetricThreshold {
		delete(out, "threshold")
	} else {
		delete(out, "metricThreshold")
	}
	if _, ok := out["notifications"].([]any); ok {
		rendered := make([]any, len(cfg.Notifications))
		for i, n := range cfg.Notifications {
			rendered[i] = n.Shown // redacted when the configuration was stored
		}
		out["notifications"] = rendered
	}
	return withLinks(out, self)
}

func (s *Handlers) listAlertConfigs(c *Ctx) error {
	project, err := c.project(readMonitoring)
	if err != nil {
		return err
	}
	return c.listConfigs(c.St.AlertConfigs(project), "groups", project, "alertConfigs")
}

// listConfigs writes a page of the configurations in o, whose self links
// are under path.
func (c *Ctx) listConfigs(o *model.Ordered[*model.AlertConfig], path ...string) error {
	if _, err := c.BoolQuery("backupJobsEnabledOnly", true); err != nil {
		return err
	}
	p, err := c.Page()
	if err != nil {
		return err
	}
	configs, total := o.Page(p)
	items := make([]doc, len(configs))
	for i, cfg := range configs {
		items[i] = c.renderConfig(cfg, c.resourceHref(append(path, cfg.ID)...))
	}
	c.list(items, total, p)
	return nil
}

func (s *Handlers) findAlertConfig(c *Ctx, need access) (*model.AlertConfig, error) {
	project, err := c.project(need)
	if err != nil {
		return nil, err
	}
	id := c.R.PathValue("config_id")
	if !api.IsObjectID(id) {
		return nil, httpx.NotFound("INVALID_ALERT_CONFIG_ID", fmt.Sprintf("An invalid alert configuration ID %s was specified.", id), id)
	}
	cfg := c.St.AlertConfigs(project).Get(id)
	if cfg == nil {
		return nil, httpx.NotFound("ALERT_CONFIG_NOT_FOUND", fmt.Sprintf("No alert configuration with ID %s exists in group %s.", id, project), id, project)
	}
	return cfg, nil
}

// renderProjectConfig shows a configuration of a project.
func (c *Ctx) renderProjectConfig(cfg *model.AlertConfig) doc {
	return c.renderConfig(cfg, c.resourceHref("groups", cfg.GroupID, "alertConfigs", cfg.ID))
}

func (s *Handlers) getAlertConfig(c *Ctx) error {
	cfg, err := s.findAlertConfig(c, readMonitoring)
	if err != nil {
		return err
	}
	c.ok(c.renderProjectConfig(cfg))
	return nil
}

// putAlertConfig replaces a configuration; leaving out `enabled` disables it.
func (s *Handlers) putAlertConfig(c *Ctx) error {
	old, err := s.findAlertConfig(c, writeMonitoring)
	if err != nil {
		return err
	}
	body, err := c.ReadObject()
	if err != nil {
		return err
	}
	cfg, err := c.St.PutAlertConfig(old, body, s.now())
	if err != nil {
		return err
	}
	c.ok(c.renderProjectConfig(cfg))
	return nil
}

// createAlertConfig adds a configuration to a project: the body of a
// replacement, with the id and times the server gives it. A groupId equal
// to the path's is accepted; an id is not, the server chooses it.
func (s *Handlers) createAlertConfig(c *Ctx) error {
	project, err := c.project(writeMonitoring)
	if err != nil {
		return err
	}
	body, err := c.ReadObject()
	if err != nil {
		return err
	}
	cfg, err := c.St.PostAlertConfig(project, body, s.now())
	if err != nil {
		return err
	}
	c.ok(c.renderProjectConfig(cfg))
	return nil
}

// deleteAlertConfig removes a configuration; its active alerts are
// cancelled. The answer is an empty object.
func (s *Handlers) deleteAlertConfig(c *Ctx) error {
	cfg, err := s.findAlertConfig(c, writeMonitoring)
	if err != nil {
		return err
	}
	c.St.DeleteAlertConfig(cfg)
	c.ok(doc{})
	return nil
}

func (s *Handlers) enableAlertConfig(c *Ctx) error {
	cfg, err := s.findAlertConfig(c, writeMonitoring)
	if err != nil {
		return err
	}
	body, err := c.ReadObject()
	if err != nil {
		return err
	}
	if err := rules.EnableAlertConfigBody().Check(body, "", doc{"id": cfg.ID, "groupId": cfg.GroupID}); err != nil {
		return err
	}
	c.ok(c.renderProjectConfig(c.St.SetConfigEnabled(cfg, body["enabled"] == true, s.now())))
	return nil
}

func (s *Handlers) listGlobalAlertConfigs(c *Ctx) error {
	if err := c.global(readGlobalAlerts); err != nil {
		return err
	}
	return c.listConfigs(c.St.GlobalAlertConfigs(), "globalAlertConfigs")
}

func (s *Handlers) findGlobalConfig(c *Ctx, need access) (*model.AlertConfig, error) {
	if err := c.global(need); err != nil {
		return nil, err
	}
	id := c.R.PathValue("config_id")
	cfg := c.St.GlobalAlertConfigs().Get(id)
	if cfg == nil {
		return nil, httpx.NotFound("GLOBAL_ALERT_CONFIG_NOT_FOUND", fmt.Sprintf("No global alert configuration with ID %s exists.", id), id)
	}
	return cfg, nil
}

// renderGlobalConfig shows a global configuration.
func (c *Ctx) renderGlobalConfig(cfg *model.AlertConfig) doc {
	return c.renderConfig(cfg, c.resourceHref("globalAlertConfigs", cfg.ID))
}

func (s *Handlers) getGlobalAlertConfig(c *Ctx) error {
	cfg, err := s.findGlobalConfig(c, readGlobalAlerts)
	if err != nil {
		return err
	}
	c.ok(c.renderGlobalConfig(cfg))
	return nil
}

// enableGlobalAlertConfig switches a global configuration on or off (endpoint
// 9). The other fields of a configuration may be sent back; they change nothing.
func (s *Handlers) enableGlobalAlertConfig(c *Ctx) error {
	cfg, err := s.findGlobalConfig(c, writeGlobalAlerts)
	if err != nil {
		return err
	}
	body, err := c.ReadObject()
	if err != nil {
		return err
	}
	if err := rules.EnableGlobalAlertConfigBody().Check(body, "", doc{"id": cfg.ID}); err != nil {
		return err
	}
	c.ok(c.renderGlobalConfig(c.St.SetConfigEnabled(cfg, body["enabled"] == true, s.now())))
	return nil
}
