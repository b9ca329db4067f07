# sct top-level Makefile. Each folder adds its own rules in its *.mk file; this file holds
# the shared flags and the targets a person types. Products go under $(BUILD).
#   make            build everything (the man pages too, into $(BUILD)/man/)
#   make test       run every test (SAN=1: under ASan+UBSan, in build-san/, the suites of
#                   SAN_TESTS; BUILD=DIR elsewhere);
#                   make test-docs: the man pages against --help, README's links
#   make fuzz       build the fuzzers;  make fuzz-run FUZZ_SECONDS=60 runs them
#   make bench      recorder, report and format benchmarks;  make bench-format
#   make deps       install the Debian packages the build needs
#   make install PREFIX=/usr/local   (DESTDIR=, LIBDIR=, INCLUDEDIR=, MANDIR= as usual)
#   make deb        the Debian packages (debian/) into $(BUILD)/deb/;  make test-deb tests them
.DELETE_ON_ERROR:
.SUFFIXES:
.DEFAULT_GOAL := all

SAN ?= 0
ifeq ($(SAN),1)
BUILD ?= build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
else
BUILD ?= build
SANFLAGS :=
endif

CC ?= gcc
CLANG ?= clang
BPFTOOL ?= bpftool
PREFIX ?= /usr/local
MANDIR ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
TMPFILESDIR ?= $(PREFIX)/lib/tmpfiles.d
ARCH := $(shell uname -m | sed 's/x86_64/x86/; s/aarch64/arm64/')

WERROR := $(if $(filter true 1,$(CI)),-Werror,)
CFLAGS ?= -O2 -g
override CFLAGS += -std=gnu11 -Wall -Wextra $(WERROR) -MMD -MP -D_GNU_SOURCE \
	-Iformat -I$(BUILD) $(SANFLAGS)
override LDFLAGS += $(SANFLAGS)
CXXFLAGS ?= -O2 -g
override CXXFLAGS += -std=gnu++17 -Wall -Wextra $(WERROR) -MMD -MP -D_GNU_SOURCE -Iformat -I$(BUILD) $(SANFLAGS)

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

ALL :=
TESTS :=
BENCHES :=
INSTALL_BINS :=
# What make install puts beside the programs: systemd units (their /usr/bin/ becomes
# $(PREFIX)/bin/) and the recorder's tmpfiles.d entry, their settings for /etc/default (never
# replaced), bash completion.
UNITS := record/sct-record.service report/ship/sct-ship.service report/ship/sct-ship.timer
CONFIGS := record/sct-record.default report/ship/sct-ship.default

# Man pages: each program's manual is Markdown beside its code, converted by Debian's go-md2man.
# Left-adjusted (.ad l): justified text cannot adjust lines that hold long identifiers (test
# names, paths), and groff warns about each of them. Not hyphenated (.nh, which go-md2man puts
# before .TH, where the man macros turn hyphenation back on): a syscall, field or option name
# broken at a hyphen reads as another name. Lines may break after a slash instead
# or an underscore (.cflags 4 /_): a test name such as record_terminal/tiocsti_does_not_reach_the_recorders_terminal
# is wider than an indented line at 80 columns.
MAN_SRCS := record/sct-record.8.md report/report/sct-report.1.md report/convert/sct-convert.1.md \
	report/ship/sct-ship.8.md spec/sct.5.md
MANS := $(foreach m,$(MAN_SRCS),$(BUILD)/man/$(basename $(notdir $(m))))
ALL += $(MANS)

define man_rule
$(BUILD)/man/$(basename $(notdir $(1))): $(1) Makefile
	$$(call msg,MAN,$$@)
	$$(Q)mkdir -p $$(@D)
	$$(Q)go-md2man -in $$< -out $$@ && sed -i '/^\.TH /a .ad l\n.nh\n.cflags 4 /_' $$@
endef
$(foreach m,$(MAN_SRCS),$(eval $(call man_rule,$(m))))

include format/build.mk
include bpf/build.mk
include record/build.mk
include report/build.mk
# The benchmarks run the other suites' programs: their .mk comes after theirs.
include $(filter-out tests/bench/bench.mk,$(sort $(wildcard tests/*/*.mk))) tests/bench/bench.mk
include fuzz/build.mk

$(BUILD)/%.o: %.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

# C++ only where a C++ library is the one source of truth: libstdc++'s demangler (report/lib).
$(BUILD)/%.o: %.cc
	$(call msg,CXX,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CXX) $(CXXFLAGS) -c $< -o $@

.PHONY: all test bench deps install clean programs deb
all: $(ALL)

# Under the sanitizers, the suites whose programs take what a file, a server, a user or the
# kernel gives them. The documents, the completion, the examples and ClickHouse's loads of valid
# traces run code those suites already run, and check nothing more there.
SAN_TESTS := test-format test-lib test-record test-record-unit test-report test-fleet-security \
	test-fuzz-regressions
test: $(if $(filter 1,$(SAN)),$(SAN_TESTS),$(TESTS))

bench: $(BENCHES)

DEPS := make gcc clang llvm libclang-rt-14-dev bpftool pkg-config libbpf-dev libdw-dev libelf-dev zlib1g-dev liblz4-dev \
	libcbor-dev libcriterion-dev linux-perf strace python3 sqlite3 qemu-system-x86 busybox-static kmod \
	libxxhash-dev libcurl4-openssl-dev clickhouse-server clickhouse-client go-md2man groff-base man-db \
	protobuf-compiler chromium \
	debhelper dpkg-dev fakeroot lintian mmdebstrap bash-completion
deps:
	@missing=$$(for p in $(DEPS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing: $$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else echo "all build dependencies are installed"; fi

# What make install and the Debian packages hold, without the tests and benchmarks of all.
programs: $(INSTALL_BINS) $(MANS) $(LIBSCT) $(LIBSCT_SO)

install: programs install-libsct
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(INSTALL_BINS) $(DESTDIR)$(PREFIX)/bin/
	for m in $(MANS); do \
		d=$(DESTDIR)$(MANDIR)/man$${m##*.}; install -d $$d && install -m 0644 $$m $$d/ || exit 1; \
	done
	install -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/default $(DESTDIR)$(BASHCOMPDIR)
	for u in $(UNITS); do sed 's|/usr/bin/|$(PREFIX)/bin/|' $$u > $(DESTDIR)$(UNITDIR)/$${u##*/} || exit 1; done
	for c in $(CONFIGS); do d=$(DESTDIR)$(SYSCONFDIR)/default/$$(basename $$c .default); \
		[ -e $$d ] || install -m 0644 $$c $$d || exit 1; done
	install -m 0644 report/sct.bash-completion $(DESTDIR)$(BASHCOMPDIR)/sct-record
	install -D -m 0644 record/sct-record.tmpfiles $(DESTDIR)$(TMPFILESDIR)/sct-record.conf
	for p in sct-report sct-convert sct-ship; do ln -sf sct-record $(DESTDIR)$(BASHCOMPDIR)/$$p; done

# Debian packages (debian/) of a copy of the tree (what git tracks or would), into $(BUILD)/deb/.
# Debian names the shared library's package after its SONAME: debian/control must follow a bump.
deb:
	@grep -qx 'Package: libsct$(LIBSCT_SOMAJOR)' debian/control || \
		{ echo "debian/control: no package libsct$(LIBSCT_SOMAJOR) for libsct.so.$(LIBSCT_SOMAJOR)" >&2; exit 1; }
	rm -rf $(BUILD)/deb && mkdir -p $(BUILD)/deb/sct
	git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -xf - -C $(BUILD)/deb/sct
	cd $(BUILD)/deb/sct && dpkg-buildpackage -b -us -uc -j2 --no-sign
	lintian --fail-on error $(BUILD)/deb/*.changes

clean:
	rm -rf build build-san $(BUILD)

# Not make deb's copy of the tree under $(BUILD)/deb: its own products, and folders named *.d.
-include $(shell find $(BUILD) -path $(BUILD)/deb -prune -o -name '*.d' -type f -print 2>/dev/null)
