# sct-record integration tests and benchmark. They run the real recorder on the real kernel:
# root and BPF are needed (outside CI, a non-root run skips them loudly).
#   make test-record      Criterion tests (tests/record_*.c) against $(BUILD)/sct-record
#   make bench-record     the recorder benchmark (README "Building, testing, benchmarks"): sct
#                         against its floor (build/bench/sct-record), beside its peers
#   make bench-args       what sct-record --args adds: raw arguments, a path per call, file size
RECORD_WL_SRCS := $(wildcard tests/workloads/*.c)
RECORD_WLS := $(RECORD_WL_SRCS:tests/workloads/%.c=$(BUILD)/tests/workloads/%)
# Workloads are the ground truth: built plain, never with sanitizers (their runtimes add syscalls).
RECORD_WL_CFLAGS := -O2 -g -std=gnu11 -Wall -Wextra $(WERROR) -D_GNU_SOURCE -pthread
RECORD_TEST_SRCS := $(wildcard tests/record_*.c)
RECORD_TEST_OBJS := $(RECORD_TEST_SRCS:%.c=$(BUILD)/%.o)
RECORD_TEST_BIN := $(BUILD)/tests/test-record
RECORD_BENCH_BIN := $(BUILD)/tests/bench-record
ARGS_BENCH_BIN := $(BUILD)/tests/bench-args
RECORD_ENV := SCT_RECORD=$(abspath $(BUILD)/sct-record) SCT_WORKLOADS=$(abspath $(BUILD)/tests/workloads)

$(BUILD)/tests/workloads/%: tests/workloads/%.c tests/workloads/workload.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(RECORD_WL_CFLAGS) $< -o $@

$(RECORD_TEST_BIN): $(RECORD_TEST_OBJS) $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ -lcriterion $(LIBSCT_LIBS)

$(RECORD_BENCH_BIN): $(BUILD)/tests/bench/bench_record.o $(BUILD)/tests/bench/bench_common.o $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LIBSCT_LIBS) -lbpf

$(ARGS_BENCH_BIN): $(BUILD)/tests/bench/bench_args.o $(BUILD)/tests/bench/bench_common.o $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LIBSCT_LIBS) -lbpf

# The benchmark's floor: sct-record with its syscall programs emptied (bpf/sct.bpf.c
# SCT_FLOOR), in $(BUILD)/bench/, never installed. Only the loaders include a skeleton: they
# are compiled again against the floor's; every other object is the recorder's own.
BENCH_DIR := $(BUILD)/bench
RECORD_FLOOR_BIN := $(BENCH_DIR)/sct-record
RECORD_LOADERS := $(BUILD)/record/bpf/load_light.o $(BUILD)/record/bpf/load_light_args.o \
	$(BUILD)/record/bpf/load_skel.o
RECORD_FLOOR_OBJS := $(filter-out $(RECORD_LOADERS),$(RECORD_OBJS)) \
	$(RECORD_LOADERS:$(BUILD)/%=$(BENCH_DIR)/%)

BENCH_SKELS := $(BENCH_DIR)/sct.skel.h $(BENCH_DIR)/sct_plain.lskel.h $(BENCH_DIR)/sct_args.lskel.h
.SECONDARY: $(BENCH_SKELS)

$(BENCH_DIR)/bpf/sct.bpf.o: bpf/sct.bpf.c $(BUILD)/vmlinux.h
	$(call bpf_compile,-DSCT_FLOOR=1)

$(BENCH_DIR)/bpf/sct_plain.bpf.o: bpf/sct.bpf.c $(BUILD)/vmlinux.h
	$(call bpf_compile,-DSCT_FLOOR=1 $(call BPF_VARIANT,PLAIN))

$(BENCH_DIR)/bpf/sct_args.bpf.o: bpf/sct.bpf.c $(BUILD)/vmlinux.h
	$(call bpf_compile,-DSCT_FLOOR=1 $(call BPF_VARIANT,ARGS))

# -I$(BENCH_DIR) first: the floor's skeletons win over $(BUILD)'s.
$(BENCH_DIR)/record/bpf/%.o: record/bpf/%.c | $(BENCH_SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -I$(BENCH_DIR) $(CFLAGS) -c $< -o $@

$(BENCH_DIR)/record/bpf/load_light_args.o: record/bpf/load_light.c | $(BENCH_SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -I$(BENCH_DIR) $(CFLAGS) -DLOAD_LIGHT_ARGS=1 -c $< -o $@

$(RECORD_FLOOR_BIN): $(RECORD_FLOOR_OBJS) $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $(RECORD_FLOOR_OBJS) -o $@ $(LIBSCT) $(LIBSCT_LIBS) $(RECORD_LIBS)

.PHONY: test-record bench-record bench-args record-workloads
record-workloads: $(RECORD_WLS)

# --jobs 1: the tests measure exact counts and startup races; they do not share the CPUs.
test-record: $(RECORD_TEST_BIN) $(RECORD_WLS) $(BUILD)/sct-record $(BUILD)/sct-report
	$(RECORD_ENV) $(RECORD_TEST_BIN) --jobs 1

bench-record: $(RECORD_BENCH_BIN) $(RECORD_WLS) $(BUILD)/sct-record $(RECORD_FLOOR_BIN)
	$(RECORD_ENV) SCT_RECORD_FLOOR=$(abspath $(RECORD_FLOOR_BIN)) $(RECORD_BENCH_BIN)

bench-args: $(ARGS_BENCH_BIN) $(RECORD_WLS) $(BUILD)/sct-record
	$(RECORD_ENV) $(ARGS_BENCH_BIN)

TESTS += test-record
BENCHES += bench-record bench-args
