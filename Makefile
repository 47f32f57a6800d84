# upkit: composable filters for SLA-aware IaaS cloud upgrades.
#
#   make            build every tool in cmd/ into build/bin/
#   make check      install test dependencies, run the suite, then run it
#                   again under AddressSanitizer + UndefinedBehaviorSanitizer
#   make demo       install build dependencies, build quietly, run the
#                   bundled example, keeping its files in build/demo
#   make install    PREFIX=/usr/local DESTDIR= (staged installs)
#   make DEV=1      stricter warnings for development
#   make LTO=       without link-time optimization
#   make SANITIZE=address,undefined   sanitized build in build-san/
#
# A tool is a folder cmd/<tool>/ of .c files.  Adding a folder adds a
# tool: see HACKING.md.  common/ holds two libraries, one folder each:
#   common/plumbing/  build/libplumbing.a: diagnostics, command lines,
#                     loading, typed access, output, graphs, time; every
#                     tool links it
#   common/iaas/      build/libiaas.a: the IaaS model of seed 000 (state
#                     document, system, catalog, requests, the resource
#                     and control graphs, SLAs, schedules); only the
#                     tools in IAAS_TOOLS see its headers and link it

VERSION := $(shell cat VERSION)
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
DATADIR = $(PREFIX)/share/upkit

CC ?= cc
PKG_CONFIG ?= pkg-config

ifdef SANITIZE
B := build-san
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
LTO :=
else
B := build
SAN_FLAGS :=
# Link-time optimization inlines across files (access.c's getters,
# idmap's probes, jscan): batch-select at 100,000 hosts is about 10 %
# faster.  make LTO= builds without it.
LTO ?= -flto=auto
endif

WARN := -Wall -Wextra -Werror
ifdef DEV
WARN += -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
	-Wpointer-arith -Wwrite-strings -Wundef -Wvla \
	-Wold-style-definition -Wnull-dereference
endif

# Deferred (=), so that the flags are asked for only when compiling,
# after scripts/install-deps has had its chance to install the libraries.
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags jansson yaml-0.1)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs jansson yaml-0.1)
# glibc has argp; musl and the BSDs need argp-standalone's -largp.
ARGP_LIBS = $(shell printf '#include <argp.h>\nint main(int c, char **v) { return argp_parse(0, c, v, 0, 0, 0); }\n' | \
	$(CC) -x c - -o /dev/null 2>/dev/null || echo -largp)

CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(SAN_FLAGS) \
	-Icommon/plumbing -DUPKIT_VERSION='"$(VERSION)"' $(PKG_CFLAGS) $(LTO) \
	$(CFLAGS)
ALL_LDFLAGS = $(SAN_FLAGS) $(LTO) $(LDFLAGS)
LIBS_ALL = $(PKG_LIBS) $(ARGP_LIBS) -lm

TOOLS := $(sort $(notdir $(wildcard cmd/*)))
BINS := $(TOOLS:%=$(B)/bin/%)
# The tools built on the IaaS model; the others (match-csp, karamel-diff,
# ha-assign, osu-run, osu-worker) sit on the plumbing alone, and cannot
# include the model's headers.
IAAS_TOOLS := ansible-plan ansible-report batch-select cg-coarsen osu-ctl \
	rg-build upgrade-loop upkit-import upkit-show upkit-sim upkit-validate \
	vm-migrate-plan
PLUMBING_SRC := $(sort $(wildcard common/plumbing/*.c))
IAAS_SRC := $(sort $(wildcard common/iaas/*.c))
PLUMBING_LIB := $(B)/libplumbing.a
IAAS_LIB := $(B)/libiaas.a
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
UNIT_BINS := $(UNIT_SRC:tests/unit/%.c=$(B)/unit/%)
# The scripts an operator or the installed loop runs, installed beside
# the binaries: upgrade-loop checks every plan with upkit-check and
# actuates with actuate-ansible (-a ansible), found beside itself; its
# advice names advice-request; --refresh takes refresh-openstack.  The
# others in scripts/ (benchmarks, campaigns, generators) need the
# source tree.  Ansible's callback plugin goes to $(DATADIR), and so
# do the module that runs each step of a playbook and its action plugin.
SCRIPTS := actuate-ansible advice-request refresh-openstack upkit-check
PLUGINS := cmd/ansible-report/callback_plugins/upkit_json.py \
    cmd/ansible-report/callback_plugins/upkit_progress.py
STEP_MODULE := cmd/ansible-plan/library/upkit_step.py \
	cmd/ansible-plan/action_plugins/upkit_step.py
MAN1 := $(sort $(wildcard man/*.1))
MAN5 := $(sort $(wildcard man/*.5))

.PHONY: all check check-run check-builds check-build-plain check-build-san \
	demo install uninstall clean deps deps-check tools units fuzz
.DEFAULT_GOAL := all
# Keep unit-test objects: they are intermediate files to make otherwise.
.SECONDARY:

all: tools units
tools: $(BINS)
units: $(UNIT_BINS)

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(PLUMBING_LIB): $(PLUMBING_SRC:%.c=$(B)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(IAAS_LIB): $(IAAS_SRC:%.c=$(B)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^
$(B)/common/iaas/%.o: ALL_CFLAGS += -Icommon/iaas

# Optional libraries, per tool: a tool whose folder has a file "libs"
# naming pkg-config packages (one per line, such as libnats) is linked
# with them (pkg-config --libs, else -l<name without "lib">) and with
# $(B)/pkg-<name>.a, built from common/<name>/*.c, the plumbing that
# needs the package.  Other tools neither link nor compile against it.
tool_pkgs = $(shell cat cmd/$(1)/libs 2>/dev/null)
pkg_libs = $(shell $(PKG_CONFIG) --libs $(1) 2>/dev/null || echo -l$(patsubst lib%,%,$(1)))
pkg_cflags = $(shell $(PKG_CONFIG) --cflags $(1) 2>/dev/null)
PKGS := $(sort $(foreach t,$(TOOLS),$(call tool_pkgs,$(t))))

define pkg_rule
$(B)/pkg-$(1).a: $(patsubst %.c,$(B)/%.o,$(sort $(wildcard common/$(1)/*.c)))
	@rm -f $$@
	$$(AR) rcs $$@ $$^
$(B)/common/$(1)/%.o: ALL_CFLAGS += $$(call pkg_cflags,$(1))
endef
$(foreach p,$(PKGS),$(eval $(call pkg_rule,$(p))))

# One rule per tool: its objects, its packages' plumbing, the model if
# it is built on it, and the plumbing.
tool_iaas = $(if $(filter $(1),$(IAAS_TOOLS)),$(IAAS_LIB))
define tool_rule
$(B)/bin/$(1): $(patsubst %.c,$(B)/%.o,$(sort $(wildcard cmd/$(1)/*.c))) \
    $(foreach p,$(call tool_pkgs,$(1)),$(B)/pkg-$(p).a) \
    $(call tool_iaas,$(1)) $(PLUMBING_LIB)
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_LDFLAGS) -o $$@ $$^ $$(LIBS_ALL) \
	    $(foreach p,$(call tool_pkgs,$(1)),$$(call pkg_libs,$(p)))
$(B)/cmd/$(1)/%.o: ALL_CFLAGS += $(foreach p,$(call tool_pkgs,$(1)),$$(call pkg_cflags,$(p))) \
    $(if $(call tool_iaas,$(1)),-Icommon/iaas) \
    $(if $(call tool_pkgs,$(1)),-Icommon)
endef
$(foreach t,$(TOOLS),$(eval $(call tool_rule,$(t))))

# Unit tests may test either library.
$(B)/tests/unit/%.o: ALL_CFLAGS += -Icommon/iaas
$(B)/unit/%: $(B)/tests/unit/%.o $(IAAS_LIB) $(PLUMBING_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS_ALL)

-include $(shell find $(B) -name '*.d' 2>/dev/null)

deps:
	@scripts/install-deps build
deps-check:
	@scripts/install-deps check

# check: both builds, then the suite on each, in one prove -j2 (two
# cores) that runs the two builds' tests side by side: tests/run
# BUILD:FILE gives a test its build ("plain" is build/, "san" is
# build-san/, ASan+UBSan).  A test that skips itself on the sanitized
# build ("SKIP plain build only": it runs no C code that the sanitized
# suite does not run otherwise, see its header) is run on the plain
# build only, and tests/cases.t is cut into shards, run one case at a
# time, so that both cores stay busy to the end.  The longest run first
# (docs/test-suite-time.md has the times): prove starts them in this
# order.  check-run runs the suite on one build, $(B), as before.
CHECK_TESTS := $(sort $(wildcard tests/*.t))
CHECK_PLAIN_ONLY := $(shell grep -l 'SKIP plain build only' $(CHECK_TESTS))
CHECK_SAN_TESTS := $(filter-out $(CHECK_PLAIN_ONLY),$(CHECK_TESTS))
CHECK_SHARDS_PLAIN := 4
CHECK_SHARDS_SAN := 10
check_shards = $(foreach k,$(shell seq 1 $(2)),$(1):tests/cases.t@$(k)/$(2))
CHECK_SPECS := $(call check_shards,plain,$(CHECK_SHARDS_PLAIN)) \
	$(call check_shards,san,$(CHECK_SHARDS_SAN)) \
	$(patsubst %,plain:%,$(filter-out tests/cases.t,$(CHECK_TESTS))) \
	$(patsubst %,san:%,$(filter-out tests/cases.t,$(CHECK_SAN_TESTS))) \
	$(patsubst %,plain:unit/%,$(notdir $(UNIT_SRC:.c=))) \
	$(patsubst %,san:unit/%,$(notdir $(UNIT_SRC:.c=)))
CHECK_FIRST := plain:tests/kill-campaign.t san:tests/failure-campaign.t \
	plain:tests/osu-nats.t san:tests/osu-nats.t plain:tests/ansible-fig1.t \
	$(filter san:tests/cases.t@%,$(CHECK_SPECS)) plain:tests/examples.t \
	$(filter plain:tests/cases.t@%,$(CHECK_SPECS)) \
	plain:tests/failure-campaign.t san:tests/tools.t
CHECK_ORDER := $(filter $(CHECK_SPECS),$(CHECK_FIRST)) \
	$(filter-out $(CHECK_FIRST),$(CHECK_SPECS))
# make check runs its builds two jobs at a time unless told otherwise.
CHECK_J = $(if $(filter -j%,$(MAKEFLAGS)),,-j2)

check: deps-check
	@$(MAKE) --no-print-directory $(CHECK_J) check-builds
	@prove -j2 -f --timer --exec $(CURDIR)/tests/run $(CHECK_ORDER)

# Both builds at once, sharing make's jobs.
check-builds: check-build-plain check-build-san
check-build-plain:
	@$(MAKE) --no-print-directory SANITIZE= all
check-build-san:
	@$(MAKE) --no-print-directory SANITIZE=address,undefined all

check-run: all
	@UPKIT_BIN=$(CURDIR)/$(B)/bin UPKIT_UNIT=$(CURDIR)/$(B)/unit \
	    UPKIT_SANITIZE='$(SANITIZE)' prove -j2 -f tests/*.t $(UNIT_BINS)

# demo: the compiler's lines go to $(B)/demo-build.log, shown only when
# the build fails; the demo keeps what it made in $(B)/demo.
demo: deps
	@mkdir -p $(B)
	@echo "demo: building the tools (log: $(B)/demo-build.log)"
	@$(MAKE) --no-print-directory tools >$(B)/demo-build.log 2>&1 || \
	    { cat $(B)/demo-build.log; exit 1; }
	@UPKIT_BIN=$(CURDIR)/$(B)/bin UPKIT_DEMO_DIR=$(CURDIR)/$(B)/demo \
	    scripts/demo

install: tools
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man5
	install -d $(DESTDIR)$(DATADIR)/callback_plugins \
	    $(DESTDIR)$(DATADIR)/library $(DESTDIR)$(DATADIR)/action_plugins
	install -m 755 $(BINS) $(SCRIPTS:%=scripts/%) $(DESTDIR)$(BINDIR)
	install -m 644 $(PLUGINS) $(DESTDIR)$(DATADIR)/callback_plugins
	install -m 644 cmd/ansible-plan/library/upkit_step.py \
	    $(DESTDIR)$(DATADIR)/library
	install -m 644 cmd/ansible-plan/action_plugins/upkit_step.py \
	    $(DESTDIR)$(DATADIR)/action_plugins
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5

uninstall:
	rm -f $(TOOLS:%=$(DESTDIR)$(BINDIR)/%) \
	    $(SCRIPTS:%=$(DESTDIR)$(BINDIR)/%) \
	    $(PLUGINS:cmd/ansible-report/%=$(DESTDIR)$(DATADIR)/%) \
	    $(STEP_MODULE:cmd/ansible-plan/%=$(DESTDIR)$(DATADIR)/%) \
	    $(MAN1:man/%=$(DESTDIR)$(MANDIR)/man1/%) \
	    $(MAN5:man/%=$(DESTDIR)$(MANDIR)/man5/%)

# fuzz: the libFuzzer targets tests/fuzz/<target>.c for the parsers
# (clang only; not part of check), each run for FUZZ_SECONDS on its seed
# corpus tests/fuzz/corpus-<target>; what the fuzzer adds goes to
# build-fuzz/corpus-<target>.  A target named after a tool also
# compiles that tool's .c files, all but the one holding main().
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_TARGETS := $(sort $(basename $(notdir $(wildcard tests/fuzz/*.c))))
FUZZ_CFLAGS = -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-Icommon/plumbing -Icommon/iaas $(PKG_CFLAGS)
# A finding: more than 1 s on one input is a hang; stderr holds the
# diagnostics that refused inputs are meant to get.
FUZZ_RUN_FLAGS ?= -timeout=2 -close_fd_mask=2

fuzz: deps
	@$(MAKE) --no-print-directory $(FUZZ_TARGETS:%=build-fuzz/%)
	@for t in $(FUZZ_TARGETS); do \
	    echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	    mkdir -p build-fuzz/corpus-$$t && \
	    build-fuzz/$$t -max_total_time=$(FUZZ_SECONDS) $(FUZZ_RUN_FLAGS) \
	        build-fuzz/corpus-$$t tests/fuzz/corpus-$$t || exit 1; \
	done

build-fuzz/%: tests/fuzz/%.c $(PLUMBING_SRC) $(IAAS_SRC) \
    $(wildcard common/*/*.h cmd/*/*.[ch])
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Icmd/$* -o $@ $< \
	    $(filter-out cmd/$*/$*.c,$(wildcard cmd/$*/*.c)) $(PLUMBING_SRC) $(IAAS_SRC) \
	    $(LIBS_ALL)

clean:
	rm -rf build build-san build-fuzz
