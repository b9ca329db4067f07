# libFuzzer harnesses over libsct (spec/FORMAT.md), one per property:
#   reader     any input: no crash, no hang, no unbounded allocation, sane diagnostics
#   roundtrip  records decoded from the input, written, read back: equal, no diagnostics
#   stacks     any input's STACK, MODULE and SYMBOL records through report/lib's symbolization:
#              no crash, unknown ids and uncovered addresses never given a name
# The library is compiled again into $(FUZZ_BUILD) with the fuzzer's instrumentation and
# ASan+UBSan, so findings inside libsct are seen. Needs clang (libFuzzer ships with it).
#   make fuzz                          build the harnesses and their seed corpora
#   make fuzz-run FUZZ_SECONDS=60      run each harness that long; fails on any finding
#   make test-fuzz-regressions         replay fuzz/regressions/ through the plain-main replayers
FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_HARNESSES := reader roundtrip stacks
# The stacks harness also needs report/lib's symbolization, compiled with the same instrumentation.
FUZZ_REPORT_SRCS := $(addprefix report/lib/,stacks.c sym_index.c demangle.cc debug_dir.c strtab.c hashmap.c outbuf.c names.c)
FUZZ_REPORT_OBJS := $(addprefix $(FUZZ_BUILD)/obj/,$(addsuffix .o,$(basename $(FUZZ_REPORT_SRCS))))
FUZZ_REPORT_LIBS := -lelf -lstdc++
FUZZ_CXX ?= clang++
# A reader never needs more than one frame body (16 MiB) and one payload (8 MiB) at a time;
# a single allocation past this cap is a length claim that was not bounded: a finding.
FUZZ_MALLOC_MB ?= 64
FUZZ_RSS_MB ?= 1024
# Inputs up to 1 MiB: work that grows faster than the input (a resync candidate claiming a
# long body at every few bytes) only shows, within -timeout, in inputs this large.
FUZZ_MAX_LEN ?= 1048576
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra $(WERROR) -D_GNU_SOURCE -MMD -MP \
	-Iformat -I$(BUILD) -Ifuzz $(FUZZ_SAN)
FUZZ_LIB_OBJS := $(LIBSCT_SRCS:%.c=$(FUZZ_BUILD)/obj/%.o)
FUZZ_COMMON := fuzz/frame_fixup.c
FUZZ_BINS := $(FUZZ_HARNESSES:%=$(FUZZ_BUILD)/%_fuzz)
FUZZ_REPLAYS := $(FUZZ_HARNESSES:%=$(BUILD)/fuzz/replay_%)
FUZZ_SEEDS = $(wildcard spec/examples/*.sct) $(wildcard fuzz/regressions/*/*)

.PHONY: fuzz fuzz-run fuzz-corpus fuzz-runtime test-fuzz-regressions
# Objects made by pattern rules only: keep them, or make deletes them and rebuilds every time.
.SECONDARY: $(FUZZ_LIB_OBJS) $(FUZZ_HARNESSES:%=$(FUZZ_BUILD)/obj/fuzz/%_fuzz.o) \
	$(FUZZ_COMMON:%.c=$(FUZZ_BUILD)/obj/%.o) $(FUZZ_HARNESSES:%=$(BUILD)/fuzz/%_fuzz.o) \
	$(FUZZ_REPORT_OBJS) \
	$(BUILD)/fuzz/replay_main.o $(FUZZ_COMMON:%.c=$(BUILD)/%.o)
fuzz: $(FUZZ_BINS) fuzz-corpus

$(FUZZ_BUILD)/obj/%.o: %.c
	$(call msg,FUZZCC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_BUILD)/obj/%.o: %.cc
	$(call msg,FUZZCXX,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CXX) $(filter-out -std=gnu11,$(FUZZ_CFLAGS)) -std=gnu++17 -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_BUILD)/%_fuzz: $(FUZZ_BUILD)/obj/fuzz/%_fuzz.o $(FUZZ_COMMON:%.c=$(FUZZ_BUILD)/obj/%.o) \
		$(FUZZ_LIB_OBJS) | fuzz-runtime
	$(call msg,FUZZLD,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $^ -o $@ $(LIBSCT_LIBS)

$(FUZZ_BUILD)/obj/fuzz/stacks_fuzz.o $(FUZZ_REPORT_OBJS): FUZZ_CFLAGS += -Ireport/lib
$(FUZZ_BUILD)/stacks_fuzz: $(FUZZ_REPORT_OBJS)
$(FUZZ_BUILD)/stacks_fuzz: LIBSCT_LIBS += $(FUZZ_REPORT_LIBS)

# Debian ships libFuzzer's runtime in libclang-rt-N-dev, only a Recommends of clang.
fuzz-runtime:
	$(Q)rt=$$($(FUZZ_CC) -print-file-name=libclang_rt.fuzzer-$$(uname -m).a); \
	test -f "$$rt" || { echo "fuzz: libFuzzer runtime not found for $(FUZZ_CC);" \
		"install it: apt-get install libclang-rt-14-dev"; exit 1; }

# Seeds are copied at build time from spec/examples and the regression inputs (not kept twice
# in git). libFuzzer adds what it finds to the same folder, under $(BUILD) only.
fuzz-corpus:
	$(Q)for h in $(FUZZ_HARNESSES); do mkdir -p $(FUZZ_BUILD)/corpus/$$h; \
		for f in $(FUZZ_SEEDS); do cp -f $$f $(FUZZ_BUILD)/corpus/$$h/seed-$$(basename $$f); done; \
	done

fuzz-run: fuzz
	$(Q)mkdir -p $(FUZZ_BUILD)/artifacts
	$(Q)fail=0; for h in $(FUZZ_HARNESSES); do \
		echo "  FUZZ     $$h for $(FUZZ_SECONDS) s"; \
		$(FUZZ_BUILD)/$${h}_fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=10 -max_len=$(FUZZ_MAX_LEN) \
			-malloc_limit_mb=$(FUZZ_MALLOC_MB) -rss_limit_mb=$(FUZZ_RSS_MB) \
			-dict=fuzz/sct.dict -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_BUILD)/artifacts/$$h- \
			$(FUZZ_BUILD)/corpus/$$h > $(FUZZ_BUILD)/$$h.log 2>&1 || { \
			fail=1; tail -n 60 $(FUZZ_BUILD)/$$h.log; \
			echo "fuzz-run: $$h found a problem; input in $(FUZZ_BUILD)/artifacts/"; }; \
		grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' $(FUZZ_BUILD)/$$h.log; \
	done; exit $$fail

# The replayers: the same harness code under a plain main, built by $(CC) with the project's
# flags (SAN=1 adds the sanitizers), for debugging with gdb and for the regression test.
$(BUILD)/fuzz/replay_%: $(BUILD)/fuzz/%_fuzz.o $(BUILD)/fuzz/replay_main.o \
		$(FUZZ_COMMON:%.c=$(BUILD)/%.o) $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LIBSCT_LIBS)

$(BUILD)/fuzz/stacks_fuzz.o: override CFLAGS += -Ireport/lib
$(BUILD)/fuzz/replay_stacks: $(BUILD)/fuzz/stacks_fuzz.o $(BUILD)/fuzz/replay_main.o \
		$(FUZZ_COMMON:%.c=$(BUILD)/%.o) $(REPORT_LIB) $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LIBSCT_LIBS) $(REPORT_LIBS)

test-fuzz-regressions: $(FUZZ_REPLAYS)
	$(Q)pass=0; fail=0; for h in $(FUZZ_HARNESSES); do \
		for f in $(wildcard fuzz/regressions/*/*); do \
			case $$f in fuzz/regressions/$$h/*) ;; *) continue;; esac; \
			if $(BUILD)/fuzz/replay_$$h $$f > /dev/null 2>&1; then pass=$$((pass + 1)); \
			else fail=$$((fail + 1)); echo "FAIL: replay_$$h $$f"; fi; \
		done; \
	done; echo "fuzz-regressions: $$pass passed, $$fail failed"; test $$fail -eq 0

TESTS += test-fuzz-regressions
