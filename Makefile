# Every tool is the Go toolchain or fetched by `go run` at a pinned version,
# so a machine with only Go installed can run every target.
GO ?= go
BIN := bin/omctl
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo none)
DATE ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -s -w \
	-X github.com/omctl/omctl/internal/build.Version=$(VERSION) \
	-X github.com/omctl/omctl/internal/build.Commit=$(COMMIT) \
	-X github.com/omctl/omctl/internal/build.Date=$(DATE)
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@2025.1.1

.PHONY: all build install test fmt-check vet lint bench clean

all: build

build:
	$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/omctl

install:
	$(GO) install -trimpath -ldflags "$(LDFLAGS)" ./cmd/omctl

## test: the gate CI runs: formatting, vet, and every test with the race detector.
test: fmt-check vet
	$(GO) test -race -count=1 ./...

fmt-check:
	@out="$$(gofmt -l cmd internal)"; \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

lint:
	$(GO) run $(STATICCHECK) ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin dist
