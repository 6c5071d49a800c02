# Tele. `make run` serves boards on http://127.0.0.1:4317 with the data in ~/.tele; `make test` runs
# every check CI runs. See README.md.

GO          ?= go
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
# Go files of the project (not the Pi install under e2e/node_modules).
GOFILES      = $(shell find . -name '*.go' -not -path './e2e/node_modules/*' -not -path './.git/*')
# Pi, pinned in e2e/package-lock.json; npm writes node_modules/.package-lock.json on every install.
NODE_STAMP  := e2e/node_modules/.package-lock.json
FUZZTIME    ?= 10s

.PHONY: run build install test e2e bench lint fmt vet staticcheck fuzz clean

## run: serve boards on 127.0.0.1:4317 (TELE_PORT, TELE_DATA or `make run ARGS="--port 5000"` change it)
run:
	$(GO) run ./cmd/tele serve $(ARGS)

## build: bin/tele
build:
	$(GO) build -o bin/tele ./cmd/tele

## install: tele into $(go env GOBIN), or $(go env GOPATH)/bin when GOBIN is unset (usually ~/go/bin)
install:
	$(GO) install ./cmd/tele
	@bin="$$($(GO) env GOBIN)"; [ -n "$$bin" ] || bin="$$($(GO) env GOPATH)/bin"; \
	echo "installed $$bin/tele"; \
	case ":$$PATH:" in *":$$bin:"*) ;; *) echo "note: $$bin is not on your PATH; add it to run tele by name";; esac

## test: everything: formatting, vet, staticcheck, then all tests with the race detector (e2e included)
test: lint $(NODE_STAMP)
	$(GO) test -race -count=1 -timeout 45m ./...

## e2e: only the end-to-end probes (the built binary, Chromium, Pi)
e2e: $(NODE_STAMP)
	$(GO) test -race -count=1 -timeout 45m -v ./e2e/...

## bench: every benchmark, 5 rounds (compare runs with benchstat)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./...

## lint: gofmt, go vet, staticcheck
lint: fmt vet staticcheck

fmt:
	@out="$$(gofmt -l $(GOFILES))"; \
	if [ -n "$$out" ]; then echo "gofmt: these files are not formatted (run gofmt -w):"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

staticcheck:
	$(GO) run $(STATICCHECK) ./...

## fuzz: a short run of every fuzz target (FUZZTIME each, default 10s)
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		dir="$$($(GO) list -f '{{.Dir}}' $$pkg)"; \
		for f in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go 2>/dev/null | sed 's/^func //'); do \
			echo "== $$pkg $$f"; \
			$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; \
	done

$(NODE_STAMP): e2e/package-lock.json
	cd e2e && npm ci --no-audit --no-fund

clean:
	rm -rf bin
