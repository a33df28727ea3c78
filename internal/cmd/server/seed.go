package server

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmd/apply"
	"github.com/omctl/omctl/internal/cmdutil"
	srv "github.com/omctl/omctl/internal/server"
	"github.com/omctl/omctl/internal/store/fixture"
)

// applyDocuments applies the --apply documents to the server before it
// serves anybody, with omctl apply's reading, checking and planning,
// through the API in this process: all or nothing, since every document
// is read, checked and planned before the first write, and a start that
// fails is not served. It logs what it did on the log; the data it leaves
// is what a reset goes back to.
func applyDocuments(ctx context.Context, opts *Options, server *srv.Server, baseURL string, log io.Writer) error {
	flag := opts.name("apply")
	docs, err := apply.ReadDocumentsOf(opts.IO, flag, opts.Apply)
	var invalid *apply.DocumentsError
	if errors.As(err, &invalid) {
		return fmt.Errorf("%s: invalid documents, the server did not start:\n  %s", flag, strings.Join(invalid.Problems, "\n  "))
	}
	if err != nil {
		return err
	}
	owner, ok := globalOwner(server.Credentials())
	if !ok {
		return cmdutil.FlagErrorf("%s needs a GLOBAL_OWNER key in the data to apply the documents with, and it has none: add one with --key PUBLIC:PRIVATE", flag)
	}
	retries := 0
	c, err := client.New(client.Options{BaseURL: baseURL, PublicKey: owner.PublicKey, PrivateKey: owner.PrivateKey,
		Transport: &inProcess{h: server, tls: strings.HasPrefix(baseURL, "https:")}, Retries: &retries})
	if err != nil {
		return err
	}
	need := func(what, id, field string) func() (string, error) {
		return func() (string, error) {
			if id == "" {
				return "", fmt.Errorf("the data has no %s: give the document's %s", what, field)
			}
			return id, nil
		}
	}
	planner := &apply.Planner{Client: c, ProjectID: need("project", owner.ProjectID, "groupId"), OrgID: need("organization", owner.OrgID, "orgId")}
	list, err := apply.PlanDocuments(ctx, planner, docs)
	if err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	var refused []string
	for _, pl := range list {
		if pl.Action == apply.Refused {
			refused = append(refused, fmt.Sprintf("%s (%s, document at line %d): %s", pl.Label, pl.Doc.Source, pl.Doc.Line, strings.Join(pl.Problems, "; ")))
		}
	}
	if len(refused) > 0 {
		return fmt.Errorf("%s: %d of %d document(s) cannot be applied, the server did not start:\n  %s", flag, len(refused), len(list), strings.Join(refused, "\n  "))
	}
	counts := map[apply.Action]int{}
	for _, pl := range list {
		counts[pl.Action]++
		if pl.Action == apply.Unchanged {
			continue
		}
		said, err := pl.Write(ctx, c)
		if err != nil {
			return fmt.Errorf("%s: %s (%s, document at line %d) was not applied, the server did not start: %w", flag, pl.Label, pl.Doc.Source, pl.Doc.Line, err)
		}
		fmt.Fprintf(log, "omctl server: %s: %s (%s)\n", flag, said, pl.Doc.Source)
	}
	fmt.Fprintf(log, "omctl server: %s: %d created, %d updated, %d unchanged\n", flag, counts[apply.Create], counts[apply.Update], counts[apply.Unchanged])
	server.SeedFromData()
	return nil
}

// globalOwner is the first credential with the GLOBAL_OWNER role.
func globalOwner(creds []fixture.Credential) (fixture.Credential, bool) {
	for _, c := range creds {
		for _, role := range strings.Split(c.Roles, ",") {
			if role == "GLOBAL_OWNER" {
				return c, true
			}
		}
	}
	return fixture.Credential{}, false
}

// inProcess serves a client's requests with a handler in this process,
// as from loopback: --apply writes before anything is served.
type inProcess struct {
	h   http.Handler
	tls bool // the server serves HTTPS: its links say so
}

func (t *inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.RemoteAddr, r.Host, r.RequestURI = "127.0.0.1:0", r.URL.Host, r.URL.RequestURI()
	if t.tls {
		r.TLS = &tls.ConnectionState{}
	}
	if r.Body == nil {
		r.Body = http.NoBody
	}
	w := &answer{header: http.Header{}}
	t.h.ServeHTTP(w, r)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return &http.Response{Status: fmt.Sprintf("%d %s", w.status, http.StatusText(w.status)), StatusCode: w.status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: w.header, Body: io.NopCloser(&w.body), ContentLength: int64(w.body.Len()), Request: r}, nil
}

// answer is the http.ResponseWriter of inProcess.
type answer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (a *answer) Header() http.Header { return a.header }

func (a *answer) WriteHeader(status int) {
	if a.status == 0 {
		a.status = status
	}
}

func (a *answer) Write(p []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	return a.body.Write(p)
}
