# pickerd: build, test and demo entry points.
#   make demo    install missing Debian packages, build release, run a pick on samples/library
#   make test    install missing Debian packages, debug build, swift test
#   make build   release build
#   make bench   side-by-side benchmark vs vipsthumbnail, ImageMagick, Pillow (docs/PERFORMANCE.md)
#   make clean   remove build products and demo output

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

# Use the toolchain in /opt/swift when swift is not already on PATH.
ifeq ($(shell command -v swift 2>/dev/null),)
export PATH := /opt/swift/usr/bin:$(PATH)
endif

SWIFT ?= swift

.PHONY: deps build test demo clean bench

deps:
	@bash scripts/install-deps.sh
	@command -v $(SWIFT) >/dev/null || { echo "make: $(SWIFT) not found: install Swift 6.3 in /opt/swift (or put it on PATH)" >&2; exit 1; }

build: deps
	$(SWIFT) build -c release

# The end-to-end tests spawn the debug pickerd/pickerctl from PICKER_BIN_DIR.
test: deps
	$(SWIFT) build
	PICKER_BIN_DIR="$$($(SWIFT) build --show-bin-path)" $(SWIFT) test

demo: build
	PICKER_BIN_DIR="$$($(SWIFT) build -c release --show-bin-path)" bash scripts/demo.sh

# Installs the bench tools if missing (libvips-tools, imagemagick, hyperfine), builds release,
# builds a bench library in a temp dir and prints one table. BENCH_ARGS=--quick for a smoke run.
bench:
	@bash scripts/install-deps.sh bench
	@command -v $(SWIFT) >/dev/null || { echo "make: $(SWIFT) not found: install Swift 6.3 in /opt/swift (or put it on PATH)" >&2; exit 1; }
	$(SWIFT) build -c release
	/usr/bin/python3 scripts/bench/bench.py --bin "$$($(SWIFT) build -c release --show-bin-path)" $(BENCH_ARGS)

clean:
	rm -rf .build
	rm -f out.png out.webp
