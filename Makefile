# SPDX-License-Identifier: MIT
# Thin front end over CMake.  `make demo` and `make check` first make sure the Debian
# packages listed in tools/packages are installed (tools/setup), then build.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
PROVE_ARGS ?=

# The sanitizer build stops at the first error of either sanitizer.  tests/lsan.supp
# names the one library whose memory the leak checker must not report (fontconfig's).
SAN_ENV = ASAN_OPTIONS=abort_on_error=0:detect_leaks=1:halt_on_error=1 \
          UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
          LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0

# make fuzz SECONDS=N: the API fuzzer (tests/fuzz) for N seconds on the sanitizer build;
# any finding, known or not, makes it fail.  FUZZ_ARGS adds options (--seed, --budget).
SECONDS   ?= 300
FUZZ_ARGS ?=

.PHONY: all setup build build-asan check demo bench fuzz install clean format

all: build

setup:
	@tools/setup

build: setup
	cmake -S . -B $(BUILD) -DMECH_WERROR=ON
	cmake --build $(BUILD) -j $(JOBS)

build-asan: setup
	cmake -S . -B $(ASAN_BUILD) -DMECH_WERROR=ON -DMECH_SANITIZE=ON -DMECH_FAULT_INJECTION=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)

check: build build-asan
	@echo "== tests: normal build ($(BUILD))"
	tests/run $(BUILD) $(PROVE_ARGS)
	@echo "== tests: ASan+UBSan build ($(ASAN_BUILD))"
	$(SAN_ENV) tests/run $(ASAN_BUILD) $(PROVE_ARGS)

demo: build
	@$(BUILD)/bin/mechlua scripts/demo.lua

bench: build
	cmake --build $(BUILD) -j $(JOBS) --target benchmarks
	@tests/bench/run $(BUILD)

fuzz: build-asan
	$(SAN_ENV) tests/fuzz/run --build $(ASAN_BUILD) --seconds $(SECONDS) --jobs $(JOBS) --strict $(FUZZ_ARGS)

install: build
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX))

format:
	clang-format -i include/mech/*.h mech/*.[ch] vm/*.[ch] stdlib/*.[ch] tests/c/*.[ch] tests/bench/*.c

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
