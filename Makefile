# swapctl: see README.md. `make deps` installs what the project needs,
# `make` builds the tool and the static guest programs, `make check` runs
# the unit tests, the fuzzers briefly and the QEMU integration tests
# (pytest, tests/integration).

SHELL := /bin/bash
VERSION := 0.1
PREFIX ?= /usr/local
CC ?= cc
PKG_CONFIG ?= pkg-config

CFLAGS ?= -O2 -g
# Warnings are errors in the normal build. A sanitizer build (CFLAGS with
# -fsanitize=..., e.g. make CFLAGS='-O1 -g -fsanitize=address,undefined')
# keeps them as warnings: the sanitizers' instrumentation makes gcc warn
# where the plain build does not. WERROR= turns them off by hand.
WERROR ?= $(if $(findstring -fsanitize,$(CFLAGS)),,-Werror)
WARN := -Wall -Wextra $(WERROR)
override CFLAGS += -std=gnu11 $(WARN) -DSWAPCTL_VERSION='"$(VERSION)"' \
	-D_GNU_SOURCE -MMD -MP
PKGS := libvirt jansson ncursesw
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
LDLIBS += $(PKG_LIBS) -lm -lpthread

# guest/ sources the host links too (as build/guest-<name>.o): validate
# and run check each plan with the guest's own parser, so that what the
# guest would refuse is refused before it boots.
# guest/sha256.c is the one SHA-256 of both sides.
HOST_GUEST := guest/gplan.c guest/sha256.c
# src/ in layers, each using only those below it (doc/HACKING.md):
# cmd/ (one cmd_* per file) over results/, over build/ and run/, over
# model/, over core/ (tests/check-layers checks the includes).
SRC_DIRS := core model build run results cmd
SRCS := $(foreach d,$(SRC_DIRS),$(wildcard src/$(d)/*.c))
INCLUDES := $(SRC_DIRS:%=-Isrc/%) -I.
OBJS := $(SRCS:src/%.c=build/%.o) $(HOST_GUEST:guest/%.c=build/guest-%.o)
LIBOBJS := $(filter-out build/cmd/main.o,$(OBJS))

GUEST_PROGS := init agent workload command usemem redisrun
GUEST_BINS := $(GUEST_PROGS:%=guest/build/%)
GUEST_COMMON := $(filter-out $(GUEST_PROGS:%=guest/%.c),$(wildcard guest/*.c))
# what the unit tests and fuzzers link beside LIBOBJS
TEST_GUEST := $(filter-out $(HOST_GUEST),$(GUEST_COMMON))
GUEST_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O2 -static -D_GNU_SOURCE

TESTS := $(patsubst tests/%.c,tests/bin/%,$(wildcard tests/test_*.c))

# libFuzzer targets: every tests/fuzz_*.c, linked like the unit tests with
# all of src/ except main.c (rebuilt with clang and sanitizers), run by
# `make fuzz` for FUZZ_TIME seconds each from tests/fuzz-seeds/<name>/.
FUZZ_CC ?= clang
FUZZ_TIME ?= 20
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -D_GNU_SOURCE \
	-DSWAPCTL_VERSION='"$(VERSION)"' $(FUZZ_SAN)
FUZZERS := $(patsubst tests/%.c,build/fuzz/bin/%,$(wildcard tests/fuzz_*.c))
FUZZ_OBJS := $(LIBOBJS:build/%.o=build/fuzz/%.o)

# Debian packages, installed by name.
DEB_PKGS := linux-source-6.1 linux-source-6.12 build-essential bc bison flex libelf-dev \
	libssl-dev ccache cpio xz-utils lz4 pkg-config quilt \
	qemu-system-x86 qemu-utils libvirt-dev libvirt-daemon \
	libvirt-daemon-driver-qemu libvirt-clients libjansson-dev \
	libncurses-dev libcmocka-dev e2fsprogs nfs-ganesha nfs-ganesha-vfs \
	tmux man-db clang libclang-rt-14-dev patch tar python3-pytest stress-ng \
	redis-server redis-tools

all: swapctl guest man

# Manual pages: man/*.[157] as written, and swapctl-metrics(7) generated
# from its template and the metric registry (`swapctl metrics --json`),
# so that it lists what this swapctl measures. tests/check-help-man
# checks the pages against the commands' --help and the registry.
MAN_SRC := $(wildcard man/*.1 man/*.5 man/*.7)
MAN_GEN := build/man/swapctl-metrics.7

man: $(MAN_GEN)

build/man/swapctl-metrics.7: swapctl man/swapctl-metrics.7.in man/gen-metrics7
	@mkdir -p $(@D)
	set -o pipefail; ./swapctl metrics --json | \
		man/gen-metrics7 man/swapctl-metrics.7.in > $@.tmp
	mv $@.tmp $@

swapctl: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/%.o: src/%.c | build
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $(INCLUDES) -c -o $@ $<

build/guest-%.o: guest/%.c | build
	$(CC) $(CFLAGS) -c -o $@ $<

build:
	mkdir -p build

guest: $(GUEST_BINS)

guest/build/%: guest/%.c $(GUEST_COMMON) $(wildcard guest/*.h common/*.h) \
		| guest/build
	$(CC) $(GUEST_CFLAGS) -o $@ $< $(GUEST_COMMON)

guest/build:
	mkdir -p guest/build

tests/bin/%: tests/%.c $(LIBOBJS) | tests/bin
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $(INCLUDES) -Iguest -o $@ $< $(LIBOBJS) \
		$(TEST_GUEST) $(LDLIBS) -lcmocka

tests/bin:
	mkdir -p tests/bin

unit: $(TESTS) swapctl man
	@set -e; for t in $(TESTS); do echo "== $$t"; $$t; done
	@echo "== tests/check-layers"; tests/check-layers
	@echo "== tests/check-help-man"; tests/check-help-man
	@echo "== tests/check-funclen"; tests/check-funclen
	@set -e; for d in tests/fixtures/run-*-unfixed; do \
		echo "== tests/check-registry --recorded $$d"; \
		tests/check-registry --recorded $$d; done

build/fuzz/%.o: src/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(PKG_CFLAGS) \
		$(INCLUDES) -c -o $@ $<

build/fuzz/guest-%.o: guest/%.c
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

build/fuzz/bin/%: tests/%.c $(FUZZ_OBJS)
	@mkdir -p build/fuzz/bin
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) $(INCLUDES) \
		-Iguest -o $@ $< $(FUZZ_OBJS) $(TEST_GUEST) $(LDLIBS)

.SECONDARY: $(FUZZ_OBJS)

fuzz: $(FUZZERS)
	@set -e; for f in $(FUZZERS); do n=$${f##*/}; \
		mkdir -p build/fuzz/corpus/$$n tests/fuzz-seeds/$$n; \
		echo "== $$f ($(FUZZ_TIME) s)"; \
		$$f -max_total_time=$(FUZZ_TIME) -max_len=20000 \
			-print_final_stats=1 build/fuzz/corpus/$$n \
			tests/fuzz-seeds/$$n 2>&1 | tail -n 12; \
		test $${PIPESTATUS[0]} -eq 0; done

# make check-asan: the unit tests and the fuzz targets' corpora (their
# seeds, tests/fuzz-seeds/, and what make fuzz found, build/fuzz/corpus/)
# built with gcc under AddressSanitizer and UndefinedBehaviorSanitizer,
# in build/asan/ (its own objects: the normal build is untouched). The
# fuzz targets run through tests/fuzz-driver.c, each input once, so no
# clang is needed. Takes about a minute on two cores, most of it compiling.
ASAN_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
ASAN_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -D_GNU_SOURCE \
	-DSWAPCTL_VERSION='"$(VERSION)"' $(ASAN_SAN) -MMD -MP
ASAN_OBJS := $(LIBOBJS:build/%.o=build/asan/%.o)
ASAN_GUEST := $(TEST_GUEST:guest/%.c=build/asan/guest/%.o)
ASAN_TESTS := $(TESTS:tests/bin/%=build/asan/tests/%)
ASAN_FUZZ := $(FUZZERS:build/fuzz/bin/%=build/asan/fuzz/%)
# detect_leaks=0: LeakSanitizer does not run under ptrace (CI sandboxes)
ASAN_ENV := ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

build/asan/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(ASAN_CFLAGS) $(PKG_CFLAGS) $(INCLUDES) -c -o $@ $<

build/asan/guest-%.o: guest/%.c
	@mkdir -p build/asan
	$(CC) $(ASAN_CFLAGS) -c -o $@ $<

build/asan/guest/%.o: guest/%.c
	@mkdir -p build/asan/guest
	$(CC) $(ASAN_CFLAGS) -c -o $@ $<

build/asan/tests/%: tests/%.c $(ASAN_OBJS) $(ASAN_GUEST)
	@mkdir -p build/asan/tests
	$(CC) $(ASAN_CFLAGS) $(PKG_CFLAGS) $(INCLUDES) -Iguest -o $@ $< \
		$(ASAN_OBJS) $(ASAN_GUEST) $(LDLIBS) -lcmocka

build/asan/fuzz/%: tests/%.c tests/fuzz-driver.c $(ASAN_OBJS) $(ASAN_GUEST)
	@mkdir -p build/asan/fuzz
	$(CC) $(ASAN_CFLAGS) $(PKG_CFLAGS) $(INCLUDES) -Iguest -o $@ $< \
		tests/fuzz-driver.c $(ASAN_OBJS) $(ASAN_GUEST) $(LDLIBS)

.SECONDARY: $(ASAN_OBJS) $(ASAN_GUEST)

check-asan: $(ASAN_TESTS) $(ASAN_FUZZ)
	@set -e; for t in $(ASAN_TESTS); do echo "== $$t"; \
		$(ASAN_ENV) $$t >build/asan/last.log 2>&1 || \
			{ cat build/asan/last.log; exit 1; }; \
		grep -h "PASSED" build/asan/last.log; done
	@set -e; for f in $(ASAN_FUZZ); do n=$${f##*/}; \
		echo "== $$f"; $(ASAN_ENV) $$f tests/fuzz-seeds/$$n \
			$$(test -d build/fuzz/corpus/$$n && \
			   echo build/fuzz/corpus/$$n); done

# Integration tests: pytest driving ./swapctl (tests/integration/, see
# doc/HACKING.md "Integration tests"), e.g.
#   make integration PYTEST_ARGS='-m "not slow"'
#   make integration PYTEST_ARGS='tests/integration/test_run.py -k bdev'
PYTEST ?= pytest-3
PYTEST_ARGS ?=
# Two tiers (tests/integration/pytest.ini, conftest.py): make check runs
# the tests not marked "full" and boots only short scenarios (the quick
# ones of tests/fixtures/scenarios/, every backend on the baseline,
# bhe-ops and the series, and one scenario per fault kind): within 10
# minutes on two cores once the kernels are built. --durations=15 names
# the slowest tests, so that a test that grew is seen.
PYTEST_MARK ?= -m "not full"
PYTEST_DURATIONS ?= --durations=15
integration: all
	$(PYTEST) $(if $(filter tests/%,$(PYTEST_ARGS)),,tests/integration) \
		$(PYTEST_MARK) $(PYTEST_DURATIONS) $(PYTEST_ARGS)

# make check-full: make check, then the full tier: the shipped
# scenarios' whole runs (every scenarios/*.json but the command
# workloads' on both kernels, the designs-* on three), the cgroup
# scenarios, repeats (parallel waves, --repeat auto, icount), two hosts
# with one killed, the short stress-ng and kernel-build and the usemem
# pair, the debug
# kernels' boots (where built: swapctl build --all --debug), and the
# tests that build kernels beyond swapctl build --all (bisect's kernel
# per patch, the 6.12 line, git trees: hours on two cores unless their
# kernels are borrowed, doc/HACKING.md).
check-full: check
	$(MAKE) integration PYTEST_MARK='-m full'

# make check-long: the full tier without those kernel builds, i.e. the
# long scenarios: what .ci/run runs after make check (about 30 minutes
# on two cores).
check-long: all
	$(MAKE) integration PYTEST_MARK='-m "full and not build"'

# The README's table, re-measured: each scenario with --repeat
# BENCH_REPEAT (kernels interleaved), its --json object kept in
# BENCH_DIR/<scenario>.json (whatever the run's exit code: a regression is
# a result too) and the table of ratios, intervals and verdicts in
# BENCH_DIR/table.md. The command workloads BENCH_WORKLOADS (the host's
# programs: kernel-build, a reference plus a limited build per guest) run
# with --repeat BENCH_WORKLOAD_REPEAT. Takes about an hour and a half on
# two cores with TCG.
BENCH_SCENARIOS ?= bdev-swap zram-swap ext4-swapfile multi-device \
	thp-swap nfs-swap
BENCH_REPEAT ?= 5
BENCH_WORKLOADS ?= kernel-build kernel-build-zram
BENCH_WORKLOAD_REPEAT ?= 3
BENCH_DIR ?= bench
bench: all
	@mkdir -p $(BENCH_DIR); for s in $(BENCH_SCENARIOS) $(BENCH_WORKLOADS); do \
		n=$(BENCH_REPEAT); case " $(BENCH_WORKLOADS) " in \
			*" $$s "*) n=$(BENCH_WORKLOAD_REPEAT);; esac; \
		echo "== $$s: --repeat $$n"; \
		./swapctl run --json --repeat $$n \
			scenarios/$$s.json >$(BENCH_DIR)/$$s.json.tmp; \
		echo "   exit $$?"; \
		mv $(BENCH_DIR)/$$s.json.tmp $(BENCH_DIR)/$$s.json; \
	done; \
	tools/bench-table $(patsubst %,$(BENCH_DIR)/%.json,$(BENCH_SCENARIOS) \
		$(BENCH_WORKLOADS)) \
		>$(BENCH_DIR)/table.md.tmp && \
		mv $(BENCH_DIR)/table.md.tmp $(BENCH_DIR)/table.md && \
		cat $(BENCH_DIR)/table.md

# The README's two-designs table: the designs-* scenarios (baseline,
# bhe-ops, swap-ops on bdev, zram, ext4 and NFS), --repeat 3 each, into
# BENCH_DIR/designs/. About 40 minutes on two cores with TCG.
DESIGNS_SCENARIOS ?= designs-bdev-swap designs-zram-swap \
	designs-ext4-swapfile designs-nfs-swap
bench-designs: all
	$(MAKE) bench BENCH_SCENARIOS="$(DESIGNS_SCENARIOS)" BENCH_WORKLOADS= \
		BENCH_REPEAT=3 BENCH_DIR=$(BENCH_DIR)/designs

# Cost with and without deterministic virtual time (issue 19): each of
# BENCH_COST_SCENARIOS (the two synthetic ones, and the memcg/global
# pairs of usemem and kernel-build) with --repeat BENCH_COST_REPEAT, once
# on plain TCG and once with --icount 3, into BENCH_DIR/cost/; then
# tools/cost-table prints cv, mde and verdict of each cost metric side by
# side. About 70 minutes on two cores with TCG.
BENCH_COST_SCENARIOS ?= bdev-swap zram-swap usemem usemem-global \
	kernel-build kernel-build-global
BENCH_COST_REPEAT ?= 5
bench-cost: all
	@mkdir -p $(BENCH_DIR)/cost; for s in $(BENCH_COST_SCENARIOS); do \
		for m in plain icount; do \
			i=; [ $$m = icount ] && i="--icount 3"; \
			echo "== $$s $$m: --repeat $(BENCH_COST_REPEAT) $$i"; \
			./swapctl run --json --repeat $(BENCH_COST_REPEAT) \
				--effect 2% $$i scenarios/$$s.json \
				>$(BENCH_DIR)/cost/$$s-$$m.json.tmp; \
			echo "   exit $$?"; \
			mv $(BENCH_DIR)/cost/$$s-$$m.json.tmp \
				$(BENCH_DIR)/cost/$$s-$$m.json; \
		done; \
	done; \
	tools/cost-table $(BENCH_DIR)/cost $(BENCH_COST_SCENARIOS) \
		>$(BENCH_DIR)/cost/table.md.tmp && \
		mv $(BENCH_DIR)/cost/table.md.tmp $(BENCH_DIR)/cost/table.md && \
		cat $(BENCH_DIR)/cost/table.md

# A test of the tests (issue 32 item 1): the series plus
# tests/fixtures/swap-ops-broken-retry.patch (TEST ONLY: the retry takes a
# second sio_pool element while it holds one) built as the variant
# swap-ops-broken, then fault-pool-exhaust on baseline, swap-ops and it.
# Passes when the broken kernel fails the run (the pageout never ends)
# and the other two pass. One kernel build (minutes with a warm cache)
# and about 5 minutes of guests.
BROKEN_DIR ?= $(BENCH_DIR)/broken
bench-broken: all
	rm -rf $(BROKEN_DIR) && mkdir -p $(BROKEN_DIR)/swap-ops-broken
	cp patches/swap-ops/0*.patch tests/fixtures/swap-ops-broken-retry.patch \
		$(BROKEN_DIR)/swap-ops-broken/
	(grep -v '^#' patches/swap-ops/series; \
		echo swap-ops-broken-retry.patch) \
		>$(BROKEN_DIR)/swap-ops-broken/series
	./swapctl build --patches $(BROKEN_DIR) --series swap-ops-broken
	./swapctl run --json --kernels baseline,swap-ops,swap-ops-broken \
		scenarios/fault-pool-exhaust.json >$(BROKEN_DIR)/run.json; \
		echo "   exit $$?"
	python3 -c 'import json, sys; \
		r = {x["kernel"]: x["status"] for x in \
		     json.load(open(sys.argv[1]))["results"]}; print(r); \
		sys.exit(r != {"baseline": "pass", "swap-ops": "pass", \
			       "swap-ops-broken": "fail"})' $(BROKEN_DIR)/run.json

# Swap write errors on the debug kernels under NFS pressure (issue 21,
# item 1): cg-nfs-fork on the baseline's and the series' debug builds,
# BENCH_NFS_DEBUG_REPEAT pairs into BENCH_DIR/nfs-debug/, then
# tools/error-rate: per kernel, how many guests logged swap write errors,
# and Fisher's exact p of the series having more, with the medians of
# the guests' time below the min watermarks and least free memory.
# About 15 minutes per pair on two cores (two hours at the default 8).
BENCH_NFS_DEBUG_REPEAT ?= 8
bench-nfs-debug: all
	./swapctl build --debug
	@mkdir -p $(BENCH_DIR)/nfs-debug; \
	./swapctl run --json --debug --repeat $(BENCH_NFS_DEBUG_REPEAT) \
		scenarios/cg-nfs-fork.json \
		>$(BENCH_DIR)/nfs-debug/cg-nfs-fork.json.tmp; \
	echo "   exit $$?"; \
	mv $(BENCH_DIR)/nfs-debug/cg-nfs-fork.json.tmp \
		$(BENCH_DIR)/nfs-debug/cg-nfs-fork.json; \
	tools/error-rate $(BENCH_DIR)/nfs-debug/cg-nfs-fork.json \
		>$(BENCH_DIR)/nfs-debug/table.md.tmp && \
		mv $(BENCH_DIR)/nfs-debug/table.md.tmp \
			$(BENCH_DIR)/nfs-debug/table.md && \
		cat $(BENCH_DIR)/nfs-debug/table.md

# swapctl's own false verdicts (issue 36): each of CALIB_SCENARIOS (what a
# reviewer runs first) calibrated with CALIB_PAIRS pairs, on plain TCG and
# with --icount 3 (swapctl calibrate: the scenario's reference kernel as
# both A and B, 3 runs of each a pair), its --json object kept in
# BENCH_DIR/calib/<scenario>-<plain|icount>.json, then tools/calib-table
# writes CALIB_DOC (its notes after the NOTES line kept). Under nice: the host's other work goes first. About
# 160 s a pair of zram-swap and 250 s of bdev-swap on two shared cores
# (plain TCG): four hours at the default 20 pairs.
CALIB_SCENARIOS ?= zram-swap bdev-swap
CALIB_MODES ?= plain icount
CALIB_PAIRS ?= 20
CALIB_DOC ?= doc/measurements/calibration.md
calibrate: all
	@mkdir -p $(BENCH_DIR)/calib; for s in $(CALIB_SCENARIOS); do \
		for m in $(CALIB_MODES); do \
			i=; [ $$m = icount ] && i="--icount 3"; \
			echo "== $$s $$m: --pairs $(CALIB_PAIRS) $$i"; \
			nice -n 10 ./swapctl calibrate --json \
				--pairs $(CALIB_PAIRS) $$i scenarios/$$s.json \
				>$(BENCH_DIR)/calib/$$s-$$m.json.tmp; \
			echo "   exit $$?"; \
			mv $(BENCH_DIR)/calib/$$s-$$m.json.tmp \
				$(BENCH_DIR)/calib/$$s-$$m.json; \
		done; \
	done; \
	tools/calib-table --keep $(CALIB_DOC) \
		$(foreach s,$(CALIB_SCENARIOS),$(foreach m,\
		$(CALIB_MODES),$(BENCH_DIR)/calib/$(s)-$(m).json)) \
		>$(CALIB_DOC).tmp && mv $(CALIB_DOC).tmp $(CALIB_DOC) && \
		cat $(CALIB_DOC)

# The shipped patch series as linux-mm expects `git format-patch` output
# (tests/check-patches: diffstats, index lines against the tarballs,
# checkpatch), then its self-test on a broken copy. About a minute.
check-patches:
	tests/check-patches
	tests/check-patches --self-test

.PHONY: check-patches bench-broken

check: all unit check-patches check-asan fuzz integration

# Quiet when everything is there; apt-get runs only for what is missing.
# Recommended packages are installed too: the QEMU, libvirt and ganesha
# set-up that the tests passed on was installed with them.
# As non-root, apt-get and useradd go through sudo.
deps:
	@sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	missing=$$(for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q ' installed$$' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "make deps: installing" $$missing; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			$$sudo apt-get install -y -qq \
			$$missing >/dev/null || exit 1; \
	fi; \
	getent passwd libvirt-qemu >/dev/null || { \
		echo "make deps: creating the system user libvirt-qemu"; \
		$$sudo useradd --system --no-create-home \
			--shell /usr/sbin/nologin libvirt-qemu; }

install: all
	install -D -m 755 swapctl $(DESTDIR)$(PREFIX)/bin/swapctl
	install -d $(DESTDIR)$(PREFIX)/share/swapctl/scenarios \
		$(DESTDIR)$(PREFIX)/share/swapctl/guest \
		$(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man5 \
		$(DESTDIR)$(PREFIX)/share/man/man7
	install -m 644 scenarios/*.json $(DESTDIR)$(PREFIX)/share/swapctl/scenarios
	install -m 755 $(GUEST_BINS) $(DESTDIR)$(PREFIX)/share/swapctl/guest
	install -m 644 guest/kernel.config $(DESTDIR)$(PREFIX)/share/swapctl/guest
	install -m 644 $(filter %.1,$(MAN_SRC)) $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(filter %.5,$(MAN_SRC)) $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 644 $(filter %.7,$(MAN_SRC)) $(MAN_GEN) \
		$(DESTDIR)$(PREFIX)/share/man/man7
	install -D -m 644 swapctl.conf $(DESTDIR)$(PREFIX)/share/swapctl/swapctl.conf
	for d in patches/*/ patches/*/*/; do \
		install -d $(DESTDIR)$(PREFIX)/share/swapctl/$$d && \
		find $$d -maxdepth 1 -type f -exec install -m 644 {} \
			$(DESTDIR)$(PREFIX)/share/swapctl/$$d \; || exit 1; \
	done

clean:
	rm -rf build guest/build tests/bin swapctl

.PHONY: calibrate check-asan bench-cost bench-designs bench-nfs-debug all guest man unit fuzz integration bench check check-full check-long deps install clean
-include $(OBJS:.o=.d)
-include $(wildcard build/asan/*.d build/asan/*/*.d)
