package alertconfigs

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestDescribeShowsDetailOrJSON(t *testing.T) {
	cfg := `{"id":"` + configID + `","groupId":"` + project + `","eventTypeName":"OUTSIDE_METRIC_THRESHOLD","enabled":false,` +
		`"matchers":[{"fieldName":"HOSTNAME","operator":"ENDS_WITH","value":".example.com"}],` +
		`"metricThreshold":{"metricName":"CONNECTIONS","operator":"GREATER_THAN","threshold":100,"units":"RAW"},` +
		`"notifications":[{"typeName":"WEBHOOK","webhookUrl":"https://h.example.com/****","delayMin":5,"intervalMin":10}]}`
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs/"+configID, 200, cfg)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	if err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", project), ConfigID: configID}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"OUTSIDE_METRIC_THRESHOLD", "HOSTNAME ENDS_WITH .example.com", "CONNECTIONS GREATER_THAN 100 RAW",
		"WEBHOOK https://h.example.com/**** after 5m every 10m"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("detail lacks %q:\n%s", want, out.String())
		}
	}
	ios, _, out, _ = iostreams.Test()
	if err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", project), ConfigID: configID}); err != nil {
		t.Fatal(err)
	}
	if out.String() != cfg+"\n" {
		t.Errorf("json = %q", out.String())
	}
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", project), ConfigID: "bad"})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("bad id: %v", err)
	}
}

func TestDescribeDetailShowsThresholdMatchersAndNotifications(t *testing.T) {
	const doc = `{"id":"5f2a0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","eventTypeName":"OUTSIDE_METRIC_THRESHOLD","enabled":false,` +
		`"matchers":[{"fieldName":"HOSTNAME","operator":"EQUALS","value":"db1"}],` +
		`"metricThreshold":{"metricName":"ASSERT_REGULAR","operator":"GREATER_THAN","threshold":2.5,"units":"RAW"},` +
		`"notifications":[{"typeName":"EMAIL","emailAddress":"a@example.com","delayMin":5,"intervalMin":60}],"tags":["x","y"]}`
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs/"+configID, 200, doc)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", project), ConfigID: configID})
	if err != nil {
		t.Fatal(err)
	}
	if req := srv.Only(); req.Method != "GET" {
		t.Errorf("method %s", req.Method)
	}
	for _, want := range []string{"OUTSIDE_METRIC_THRESHOLD", "HOSTNAME EQUALS db1", "ASSERT_REGULAR GREATER_THAN 2.5 RAW", "EMAIL a@example.com after 5m every 60m", "Tags:          x\n               y"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("detail lacks %q:\n%s", want, out.String())
		}
	}
}

func TestDescribeServerErrorsAndBadID(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs/"+configID, 401, `{"detail":"bad key","error":401,"errorCode":"NOT_AUTHORIZED","reason":"Unauthorized"}`)
	ios, _, out, _ := iostreams.Test()
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", project), ConfigID: configID})
	if cmdutil.ExitCode(err) != cmdutil.ExitAuth || out.Len() != 0 {
		t.Errorf("err = %v, exit %d", err, cmdutil.ExitCode(err))
	}
	err = describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", project), ConfigID: "12"})
	if err == nil || !strings.Contains(err.Error(), "24 hexadecimal digits") || len(srv.Requests()) != 1 {
		t.Errorf("err = %v, %d requests", err, len(srv.Requests()))
	}
}
