# pickerd: build, test and demo entry points.
#   make demo    install missing Debian packages, build release, run a pick on samples/library
#   make test    install missing Debian packages, debug build, swift test
#   make build   release build
#   make bench   side-by-side benchmark vs vipsthumbnail, ImageMagick, Pillow (docs/PERFORMANCE.md)
#   make bench-library   pickerd on a 100,000-photo library next to find/stat/C floors (BENCH_PHOTOS)
#   make install PREFIX=~/.local   binaries, systemd user units, completions
#   make fuzz    libFuzzer targets for 60 s each (FUZZ_SECONDS, FUZZ_JOBS; fuzz/README.md)
#   make soak    load and fault soak of a release pickerd, 60 s (SOAK_SECONDS; docs/RELIABILITY.md)
#   make clean   remove build products and demo output

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

# Use the toolchain in /opt/swift when swift is not already on PATH.
ifeq ($(shell command -v swift 2>/dev/null),)
export PATH := /opt/swift/usr/bin:$(PATH)
endif

SWIFT ?= swift

.PHONY: deps build test demo clean bench bench-library install

PREFIX ?= /usr/local
DESTDIR ?=

deps:
	@bash scripts/install-deps.sh
	@command -v $(SWIFT) >/dev/null || { echo "make: $(SWIFT) not found: install Swift 6.3 in /opt/swift (or put it on PATH)" >&2; exit 1; }

build: deps
	$(SWIFT) build -c release

# The end-to-end tests spawn the debug pickerd/pickerctl from PICKER_BIN_DIR (`swift build` also
# builds Tests/PickerTestProbe, which engine tests spawn). Then the clients in clients/ run their own
# tests against a live daemon built here. Everything is logged; scripts/test-summary.py ends the run
# with the corpus used (PICKER_TESTDATA=none forces Tests/Fixtures) and every skipped test with its
# reason. The exit status is the tests' (pipefail: tee does not hide a failure; set -e does not
# apply left of `||`, so the client loop collects failures itself).
test: deps
	@python3 scripts/test-guard.py $(MAKE) --no-print-directory test-unguarded

# The heavy end-to-end suites (races, memory bounds, storms, pick in tmux/xterm) run in a second
# `swift test` after the rest, so the slowest cannot starve the fastest (issue 20).
HEAVY_TESTS := EndToEndTests\.(Portal(Frontend|ServedByClient|Setup|Forward)?Tests|SwapRaceTests|MemoryBoundsTests|WatchStormTests|Pick(Tmux|Xterm|XtermDefault|Grid|BrokenPhoto|NameInert|Pty|Opening|Centring|HelpAndPage|NeverWaiting|PreviewBrowse|FuzzyFilter|AsciiLocale|PhotoInfo|SymbolClass|Zoom|Mlterm)Tests|NvimKittyTests)

# The body of `make test`, run by scripts/test-guard.py: a private TMPDIR removed at the end, and a
# failure when the run left files in it or in /tmp, or processes (pickerd, tmux) running.
.PHONY: test-unguarded
test-unguarded:
	$(SWIFT) build
	@log="$$(mktemp /tmp/pickerd-make-test.XXXXXX)"; status=0; \
	bin="$$($(SWIFT) build --show-bin-path)"; \
	( \
		failed=0; \
		PICKER_BIN_DIR="$$bin" $(SWIFT) test --skip '$(HEAVY_TESTS)' || failed=1; \
		echo "== heavy end-to-end suites"; \
		PICKER_BIN_DIR="$$bin" $(SWIFT) test --filter '$(HEAVY_TESTS)' || failed=1; \
		for t in clients/*/run-tests.sh; do \
			[ -f "$$t" ] || continue; \
			echo "== $$t"; \
			PICKER_BIN_DIR="$$bin" bash "$$t" || failed=1; \
		done; \
		exit "$$failed"; \
	) 2>&1 | tee "$$log" || status=$$?; \
	python3 scripts/test-summary.py --status "$$status" "$$log"; \
	rm -f "$$log"; \
	exit "$$status"

demo: build
	PICKER_BIN_DIR="$$($(SWIFT) build -c release --show-bin-path)" bash scripts/demo.sh

# Installs the bench tools if missing (libvips-tools, imagemagick, hyperfine), builds release,
# builds a bench library in a temp dir and prints one table. BENCH_ARGS=--quick for a smoke run.
bench:
	@bash scripts/install-deps.sh bench
	@command -v $(SWIFT) >/dev/null || { echo "make: $(SWIFT) not found: install Swift 6.3 in /opt/swift (or put it on PATH)" >&2; exit 1; }
	$(SWIFT) build -c release
	/usr/bin/python3 scripts/bench/bench.py --bin "$$($(SWIFT) build -c release --show-bin-path)" $(BENCH_ARGS)

# A library of BENCH_PHOTOS small camera-Exif JPEGs (default 100000; 1000 for a smoke run, 1000000
# by hand), kept in ~/.cache/pickerd-bench/library-N between runs (BENCH_ARGS=--rebuild to remake);
# start, scan, restart, live events, idle, RSS and listings next to the floors of the same run.
BENCH_PHOTOS ?= 100000
bench-library: deps
	@command -v gcc >/dev/null || { echo "make: gcc not found (the C floor is compiled at bench time)" >&2; exit 1; }
	$(SWIFT) build -c release
	/usr/bin/python3 scripts/bench/bench_library.py --bin "$$($(SWIFT) build -c release --show-bin-path)" \
		--photos $(BENCH_PHOTOS) $(BENCH_ARGS)

# Binaries, systemd user units and shell completions under $(DESTDIR)$(PREFIX).
install: build
	@bin="$$($(SWIFT) build -c release --show-bin-path)"; \
	root="$(DESTDIR)$(PREFIX)"; \
	install -d "$$root/bin" "$$root/lib/systemd/user" "$$root/share/doc/pickerd" \
		"$$root/share/bash-completion/completions" "$$root/share/zsh/site-functions" \
		"$$root/share/fish/vendor_completions.d" "$$root/share/man/man1"; \
	install -m 0755 "$$bin/pickerd" "$$bin/pickerctl" "$$root/bin/"; \
	for unit in pickerd.socket pickerd.service; do \
		sed -e "s|@BINDIR@|$(PREFIX)/bin|g" -e "s|@DOCDIR@|$(PREFIX)/share/doc/pickerd|g" \
			"contrib/systemd/$$unit" > "$$root/lib/systemd/user/$$unit"; \
		chmod 0644 "$$root/lib/systemd/user/$$unit"; \
	done; \
	install -m 0644 README.md docs/PROTOCOL.md "$$root/share/doc/pickerd/"; \
	"$$bin/pickerctl" completions bash > "$$root/share/bash-completion/completions/pickerctl"; \
	"$$bin/pickerctl" completions zsh > "$$root/share/zsh/site-functions/_pickerctl"; \
	"$$bin/pickerctl" completions fish > "$$root/share/fish/vendor_completions.d/pickerctl.fish"; \
	"$$bin/pickerctl" __man > "$$root/share/man/man1/pickerctl.1"; \
	"$$bin/pickerd" --man > "$$root/share/man/man1/pickerd.1"; \
	chmod 0644 "$$root/share/man/man1/pickerctl.1" "$$root/share/man/man1/pickerd.1"; \
	$(MAKE) --no-print-directory install-portal bin="$$bin" root="$$root"; \
	echo "installed pickerd, pickerctl, pickerd-portal, systemd user units, completions and man pages under $$root"

# pickerd-portal (docs/PORTAL.md): the binary, its .portal file, D-Bus activation file, systemd user
# unit, and the two setup files (portal 1.16 drop-in, 1.17+ portals.conf) as documentation.
.PHONY: install-portal
install-portal:
	install -d "$(root)/bin" "$(root)/share/xdg-desktop-portal/portals" "$(root)/share/dbus-1/services" \
		"$(root)/lib/systemd/user" "$(root)/share/doc/pickerd/portal" "$(root)/share/man/man1"
	install -m 0755 "$(bin)/pickerd-portal" "$(root)/bin/"
	install -m 0644 contrib/portal/pickerd.portal "$(root)/share/xdg-desktop-portal/portals/"
	sed -e "s|@BINDIR@|$(PREFIX)/bin|g" contrib/portal/org.freedesktop.impl.portal.desktop.pickerd.service \
		> "$(root)/share/dbus-1/services/org.freedesktop.impl.portal.desktop.pickerd.service"
	sed -e "s|@BINDIR@|$(PREFIX)/bin|g" -e "s|@DOCDIR@|$(PREFIX)/share/doc/pickerd|g" contrib/systemd/pickerd-portal.service \
		> "$(root)/lib/systemd/user/pickerd-portal.service"
	install -m 0644 contrib/portal/pickerd-portals.conf contrib/portal/xdg-desktop-portal-1.16.conf "$(root)/share/doc/pickerd/portal/"
	install -m 0644 docs/PORTAL.md "$(root)/share/doc/pickerd/"
	"$(bin)/pickerd-portal" --man > "$(root)/share/man/man1/pickerd-portal.1"
	chmod 0644 "$(root)/share/dbus-1/services/org.freedesktop.impl.portal.desktop.pickerd.service" \
		"$(root)/lib/systemd/user/pickerd-portal.service" "$(root)/share/man/man1/pickerd-portal.1"

clean:
	rm -rf .build
	rm -f out.png out.webp

# Fuzzing (fuzz/README.md): build the libFuzzer targets, seed them from ../shared/testdata,
# docs/PROTOCOL.md and fuzz/regressions/, run each for FUZZ_SECONDS, FUZZ_JOBS at a time. Exits 1
# on any finding. (`make test` replays fuzz/regressions/ without libFuzzer.)
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1
.PHONY: fuzz soak
fuzz: deps
	bash fuzz/build.sh
	python3 fuzz/seeds.py
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) bash fuzz/run.sh

# Soak (docs/RELIABILITY.md): a release pickerd under load and faults for SOAK_SECONDS, loopback
# only; stops by itself and prints a summary (exit 1 if a check failed).
SOAK_SECONDS ?= 60
soak: deps
	$(SWIFT) build -c release
	python3 scripts/soak/soak.py --seconds $(SOAK_SECONDS) \
		--pickerd "$$($(SWIFT) build -c release --show-bin-path)/pickerd" \
		--pickerctl "$$($(SWIFT) build -c release --show-bin-path)/pickerctl"
