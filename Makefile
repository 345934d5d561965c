# The two commands: `make run` builds and serves at http://localhost:8080,
# `make test` runs every test. Both start from a fresh clone.

# A copy of the site with camera-sized photographs (scripts/photo-site.sh).
PHOTO_SITE := .photo-site

# contracts/: what the front end shares with the server (enquiry rules,
# analytics events, photographs' limits, the content's rules), the one
# folder outside web/ and content/ it reads.
CONTRACTS := $(shell find contracts -type f 2>/dev/null)
WEB_SOURCES := $(shell find web/app web/public web/scripts content -type f 2>/dev/null) $(CONTRACTS) \
	web/react-router.config.ts web/vite.config.ts web/package-lock.json
# Every file of cmd, internal and contracts: what they embed (the
# workspace's templates, the migrations, the contracts) is in the binary too.
GO_SOURCES := $(shell find cmd internal contracts -type f 2>/dev/null) $(shell find content web -name '*.go' -not -path 'web/node_modules/*' 2>/dev/null) go.mod go.sum

.PHONY: run build check check-deploy test lint test-go test-web test-budgets test-e2e typecheck bench bench-serve bench-enquiries bench-images load lighthouse lighthouse-photos interactive long-tasks clean

run: build
	./bin/studio

build: bin/studio

# The content check alone: every problem of content/, one line each.
check: web/node_modules/.package-lock.json
	@cd web && npm run --silent check

# Front-end packages, installed exactly as the lock file says.
web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	@touch $@

# The content check (web/scripts/check-content.ts: every problem of
# content/, one line each), then the image pipeline's output and manifest
# (web/scripts/images.mjs), which the route loaders, and so the typecheck, read.
web/.generated/images.json: web/node_modules/.package-lock.json web/scripts/images.mjs web/scripts/check-content.ts web/scripts/content-rules.ts web/scripts/content-paths.mjs web/scripts/content-references.mjs $(CONTRACTS) web/app/lib/facts.ts $(shell find content -type f 2>/dev/null)
	cd web && npm run --silent check && npm run --silent images

# The prerendered site, with .gz and .br beside every text file. The stamp
# marks the build's end: a page the build did not change keeps its old file
# (linked from the prerender's cache) and its old time, so index.html's own
# time says nothing of the scripts beside it.
web/build/.built: web/node_modules/.package-lock.json $(WEB_SOURCES)
	cd web && npm run build
	touch $@

bin/studio: web/build/.built $(GO_SOURCES)
	go build -o bin/studio ./cmd/studio

# The stages one after the other, each followed by its time
# (scripts/timed.sh); the first to fail stops the rest.
TEST_STAGES := lint test-go test-web test-budgets test-e2e
test:
	@MAKE='$(MAKE)' scripts/timed.sh $(TEST_STAGES)

# The lint gates; each stops at its first problem and names where it is.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint: typecheck bin/studio
	@unformatted=$$(gofmt -l cmd internal contracts content deploy docs web/embed.go); \
	  if [ -n "$$unformatted" ]; then echo "gofmt: not formatted: $$unformatted"; exit 1; fi
	go vet ./...
	go run $(STATICCHECK) ./...
	go mod tidy -diff
	cd web && npx eslint --max-warnings 0 .
	scripts/check-deploy.sh

# The deployment files of deploy/, each checked by the tool that reads it.
check-deploy: bin/studio web/node_modules/.package-lock.json
	scripts/check-deploy.sh

# Independent tests run in parallel (t.Parallel), each with its own
# DATA_DIR, port, and PostgreSQL schema. The limit is for a busy machine:
# cmd/studio builds the site with the front end's pipeline several times.
test-go: bin/studio
	go test -race -timeout 30m ./...

# npm run typecheck first makes track()'s types (web/.generated/analytics-events.d.ts)
# from the list of analytics events, contracts/analytics-events.json.
typecheck: web/.generated/images.json
	cd web && npm run typecheck

# scripts/build-caches.test.ts prerenders with the bundles of web/build.
test-web: typecheck web/build/.built
	cd web && npx vitest run

# Size budgets of the build output (web/scripts/budgets.mjs), for this site
# and for its copy with camera-sized photographs.
test-budgets: web/build/.built $(PHOTO_SITE)/bin/studio
	cd web && npm run --silent budgets
	@echo "the copy with photographs ($(PHOTO_SITE)):"
	cd web && npm run --silent budgets -- ../$(PHOTO_SITE)/web/build/client

# A copy of the site with camera-sized photographs made on the spot, as a
# studio would add them (scripts/photo-site.sh); e2e/photos.spec.ts runs on it.
$(PHOTO_SITE)/bin/studio: bin/studio scripts/photo-site.sh web/scripts/sample-photos.mjs
	scripts/photo-site.sh $(PHOTO_SITE)

# Browser tests in Debian's Chromium against a freshly built bin/studio
# and the photographed copy.
test-e2e: bin/studio $(PHOTO_SITE)/bin/studio
	cd web && E2E_PHOTO_SITE=$(CURDIR)/$(PHOTO_SITE) npx playwright test

# Figures, not tests: see docs/benchmarks.md.
bench:
	scripts/bench.sh

# bin/studio against a bare net/http handler sending the same brotli bytes
# with the same headers (scripts/bareserve): requests/s, p99, ratio.
bench-serve:
	scripts/bench-serve.sh

# Enquiries accepted per second from 16 concurrent clients, SQLite durable.
bench-enquiries:
	go test -run '^$$' -bench BenchmarkEnquiries -benchtime 5000x ./internal/server/

# Analytics events kept per second (64 clients, batches of 20, SQLite),
# and the insights page over 30 days of 1,000,000 events.
.PHONY: bench-events
bench-events:
	go test -run '^$$' -bench BenchmarkEvents -benchtime 200000x ./internal/server/
	go test -run '^$$' -bench BenchmarkInsightsPage -benchtime 20x ./internal/workspace/insights/

# studio backup and studio restore: the database part with 100,000 enquiries, and a whole
# backup whose content holds 100 products' photographs: time and size.
.PHONY: bench-backup
bench-backup:
	go test -run '^$$' -bench Backup100k -benchtime 3x ./internal/store/
	go test -run '^$$' -bench Backup100Products -benchtime 3x ./internal/backup/

# A 300-product release (about 1 GB, 17,000 files) checked against its
# list of files, as a start-up and a Make live check it.
.PHONY: bench-verify
bench-verify:
	go test -run '^$$' -bench Verify300Products -benchtime 5x ./internal/publish/releases/

# The disk a release takes at PRODUCTS (300): a text on every page, a text on one product.
.PHONY: bench-release-disk
bench-release-disk:
	scripts/bench-release-disk.sh

# Publishing timed: a text change and a new photograph pushed → live, a
# rollback, failed requests during switches under wrk, a build's peak
# memory; for the shipped catalogue and for PRODUCTS (300) with photographs.
.PHONY: bench-publish
bench-publish:
	scripts/bench-publish.sh

# The workspace's preview timed: Save → the preview shows it, for a text and
# a new photograph, the first preview after a restart, the renderer's memory.
.PHONY: bench-preview
bench-preview:
	scripts/bench-preview.sh

# Pages and enquiry posts mixed, 30 s at 256 connections: errors, 5xx, p99, RSS.
load:
	scripts/load.sh

lighthouse: build
	scripts/lighthouse.sh

# First paint and time to interactive on slow 4G with a 4x slower CPU.
interactive: build
	scripts/interactive.sh

# The long tasks of the main thread while / loads, CPU 4x slower, and their
# blocking time (what Lighthouse's Total Blocking Time sums).
long-tasks: build
	scripts/long-tasks.sh

# A catalogue of 300 products, 200 of them photographed: build times,
# first-load JavaScript, and memory under make bench.
bench-images:
	scripts/bench-images.sh

# Lighthouse and page weight of a product page with camera photographs.
lighthouse-photos: $(PHOTO_SITE)/bin/studio
	SITE=$(PHOTO_SITE) scripts/lighthouse-photos.sh

clean:
	rm -rf bin web/build web/.react-router
