# Every tool is the Go toolchain or fetched by `go run` at a pinned version,
# so a machine with only Go installed can run every target.
GO ?= go
BIN := bin/omctl
# Without a tag the version stays "dev"; the commit says which build it is.
VERSION ?= $(shell git describe --tags --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo none)
DATE ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -s -w \
	-X github.com/omctl/omctl/internal/build.Version=$(VERSION) \
	-X github.com/omctl/omctl/internal/build.Commit=$(COMMIT) \
	-X github.com/omctl/omctl/internal/build.Date=$(DATE)
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOCYCLO := github.com/fzipp/gocyclo/cmd/gocyclo@v0.6.0

.PHONY: all build install test test-keyring test-terminal terminal-tools test-browser browser-tools screenshot fmt-check vet lint bench bench-fetchall bench-startup bench-server bench-soak fuzz clean demo docs completions release-check image test-image

all: build

# Static, as the releases (.goreleaser.yaml) and the image are: nothing
# to load and link before main (docs/performance.md, "Start-up").
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/omctl

install:
	CGO_ENABLED=0 $(GO) install -trimpath -ldflags "$(LDFLAGS)" ./cmd/omctl

## test: the gate CI runs: formatting, vet, and every test with the race detector.
test: fmt-check vet
	$(GO) test -race -count=1 ./...

# apt-get as root, else through sudo; on a machine without apt-get the
# targets name the packages to install and the tests skip, saying so.
APT_GET := $(if $(shell command -v apt-get),$(if $(filter 0,$(shell id -u)),,sudo) apt-get,)
define need
	@missing=""; for tool in $(1); do command -v $$tool >/dev/null || missing=1; done; \
	if [ -n "$$missing" ]; then \
	  if [ -n "$(APT_GET)" ]; then $(APT_GET) update -qq && $(APT_GET) install -y $(2); \
	  else echo "install $(2) with your package manager"; fi; \
	fi
endef

## test-keyring: save, read and migrate a key through a real Secret Service
## (gnome-keyring on a D-Bus session of its own); make test skips it when
## the tools are missing.
test-keyring:
	$(call need,gnome-keyring-daemon secret-tool dbus-run-session,gnome-keyring dbus-daemon libsecret-tools)
	$(GO) test -count=1 -v -run 'TestKeyring' ./cmd/omctl

## test-terminal: drive omctl inside tmux at 80x40 and 60x20 (prompts, the
## pickers, alerts list --watch, Ctrl-C during a table and -o json);
## make test runs them too, and skips them, saying so, without tmux.
test-terminal: terminal-tools
	$(GO) test -count=1 -v -run 'InARealTerminal' ./cmd/omctl

## terminal-tools: install tmux, which the terminal tests drive.
terminal-tools:
	$(call need,tmux,tmux)

## test-browser: the page of omctl server (/_omctl/ui/) driven in Debian's
## headless chromium by chromedp; make test runs it too, and skips it,
## saying so, without chromium.
BROWSER_TESTS := TestThePageInARealBrowser|TestThePageNeedsTheOwnersCredentials
test-browser: browser-tools
	$(GO) test -count=1 -v -run '$(BROWSER_TESTS)' ./internal/server

## browser-tools: install chromium, which the browser tests drive.
browser-tools:
	$(call need,chromium,chromium)

## screenshot: docs/ui.png, the page as README.md shows it.
screenshot:
	$(call need,chromium,chromium)
	$(GO) test -count=1 -run TestThePageInARealBrowser ./internal/server -args -screenshot $(CURDIR)/docs/ui.png

fmt-check:
	@out="$$(gofmt -l cmd internal bench omtest)"; \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

## lint: staticcheck, and no function of the server or its store with a
## cyclomatic complexity over 25 (their tests bound the length to 80 lines).
lint:
	$(GO) run $(STATICCHECK) ./...
	$(GO) run $(GOCYCLO) -over 25 internal/server internal/store

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## bench-fetchall: time `omctl alerts list --all -o jsonl` against a curl
## --digest loop on a server holding N alerts (docs/performance.md).
N ?= 100000
bench-fetchall: build
	$(GO) run ./bench/fetchall -omctl $(BIN) -n $(N)

## bench-startup: time `omctl --version` and `omctl alerts list --help`
## against a bare cobra binary with the same command tree, and against the
## vendor's CLI (mongocli v1) when PEER names one (docs/performance.md).
PEER ?=
bench-startup: build
	$(GO) run ./bench/startup -omctl $(BIN) $(if $(PEER),-peer $(PEER))

## bench-server: start-up, memory, pages, digest GETs beside a bare handler,
## and acknowledgements with --state, of omctl server holding N alerts.
bench-server: build
	$(GO) run ./bench/serverbench -omctl $(BIN) -n $(N)

## bench-soak: omctl server --state for SOAK (default 3m) under mixed load,
## a year's clock move, webhooks, then SIGKILL and a count of lost writes.
SOAK ?= 3m
bench-soak: build
	$(GO) run ./bench/soak -omctl $(BIN) -duration $(SOAK)

FUZZTIME ?= 30s
# The model-based test of the alert engine (make test runs 100 cases).
MODEL_CHECKS ?= 3000
MODEL_STEPS ?= 60

## fuzz: run every Go fuzz target for FUZZTIME each (make test runs their
## seeds), and the engine's model-based test on MODEL_CHECKS cases.
fuzz:
	$(GO) test -count=1 -run '^TestEngineAgainstModel$$' ./internal/store/engine -rapid.checks=$(MODEL_CHECKS) -rapid.steps=$(MODEL_STEPS)
	@for pkg in $$($(GO) list ./...); do 	  for fn in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do 	    echo "== $$pkg $$fn"; 	    $(GO) test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; 	  done; 	done

clean:
	rm -rf bin dist

## demo: start `omctl server --demo` and run a short tour of omctl against it.
demo: build
	@tmp=$$(mktemp -d); \
	./$(BIN) server --demo --listen 127.0.0.1:0 --env-file $$tmp/env --quiet > $$tmp/url 2> $$tmp/log & pid=$$!; \
	trap 'kill $$pid 2>/dev/null; rm -rf '"$$tmp" EXIT; \
	for i in $$(seq 100); do [ -s $$tmp/url ] && break; sleep 0.1; done; \
	. $$tmp/env; set -x; \
	./$(BIN) projects list; \
	./$(BIN) clusters list --project production; \
	./$(BIN) alerts list --status OPEN --limit 5; \
	./$(BIN) alerts list --all -o jsonl --jq '.eventTypeName' | sort | uniq -c | sort -rn | head -5; \
	./$(BIN) alertconfigs list --limit 3; \
	./$(BIN) snapshots list --cluster 5e3c0c2e8f9d4b0012340001 --limit 3; \
	./$(BIN) oplogstores describe oplog-us-east-1 -o json --jq '{id, s3BucketName, s3MaxConnections}'; \
	./$(BIN) backupconfigs describe 5e3c0c2e8f9d4b0012340003 --project 5e2b0c2e8f9d4b0012340002 --members

## docs, completions: regenerate docs/ and completions/ from the command tree
## (make test fails while they are stale).
docs completions:
	$(GO) test ./internal/cmd/root -run TestReferenceDocsAndCompletionsAreCurrent -count=1 -update

# v2.18 needs Go 1.27, and v2.16-v2.17 depend on a module the proxy here
# does not serve; v2.15.0 builds with the Go of go.mod from the proxy alone.
GORELEASER := github.com/goreleaser/goreleaser/v2@v2.15.0

## release-check: validate .goreleaser.yaml (not part of make test: it fetches goreleaser).
release-check:
	$(GO) run $(GORELEASER) check

## image: build the omctl server image of Containerfile as IMAGE, with
## podman or docker (whichever exists; CONTAINER_TOOL to choose), from a
## static binary for this machine's architecture, laid out as goreleaser's
## dockers_v2 lays out its context.
IMAGE ?= localhost/omctl:dev
CONTAINER_TOOL ?= $(firstword $(shell command -v podman docker 2>/dev/null))
IMAGE_ARCH ?= $(shell $(GO) env GOARCH)
image:
	@if [ -z "$(CONTAINER_TOOL)" ]; then echo "make image needs podman or docker"; exit 1; fi
	@ctx=$$(mktemp -d) && trap 'rm -rf "$$ctx"' EXIT && \
	CGO_ENABLED=0 GOOS=linux GOARCH=$(IMAGE_ARCH) $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o "$$ctx/linux/$(IMAGE_ARCH)/omctl" ./cmd/omctl && \
	cp -R Containerfile image "$$ctx/" && \
	$(CONTAINER_TOOL) build $(if $(findstring podman,$(CONTAINER_TOOL)),--format docker) --platform linux/$(IMAGE_ARCH) \
	  --build-arg TARGETPLATFORM=linux/$(IMAGE_ARCH) -f "$$ctx/Containerfile" -t $(IMAGE) "$$ctx"

## test-image: build the image with podman (installed with apt-get as root
## when missing, with runc, which runs containers where crun cannot) in a
## store of its own, then run it configured by environment alone, seeded
## with --apply, and check health, keys and the seeded store
## (internal/imagetest says how, where containers cannot run).
test-image:
	@command -v podman >/dev/null || { \
	  if [ -n "$(APT_GET)" ]; then $(APT_GET) update && $(APT_GET) install -y podman runc; \
	  else echo "install podman with your package manager"; exit 1; fi; }
	@store=$$(mktemp -d) && trap 'rm -rf "$$store"' EXIT && \
	podman="podman --root $$store/root --runroot $$store/run --storage-driver vfs" && \
	$(MAKE) --no-print-directory image CONTAINER_TOOL="$$podman" IMAGE=localhost/omctl:test-image && \
	OMCTL_TEST_IMAGE=localhost/omctl:test-image OMCTL_TEST_PODMAN="$$podman" $(GO) test -count=1 -v -run TestImage ./internal/imagetest
