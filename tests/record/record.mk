# sct-record integration tests. They run the real recorder on the real kernel: root and BPF
# are needed (outside CI, a non-root run skips them loudly). The workloads (workloads/) are the
# programs they trace; bench-record and bench-args run them too.
#   make test-record      Criterion tests (tests/record/record_*.c) against $(BUILD)/sct-record
RECORD_WL_SRCS := $(wildcard tests/record/workloads/*.c)
RECORD_WLS := $(RECORD_WL_SRCS:%.c=$(BUILD)/%)
# Workloads are the ground truth: built plain, never with sanitizers (their runtimes add syscalls).
RECORD_WL_CFLAGS := -O2 -g -std=gnu11 -Wall -Wextra $(WERROR) -D_GNU_SOURCE -pthread
RECORD_TEST_SRCS := $(wildcard tests/record/record_*.c)
RECORD_TEST_OBJS := $(RECORD_TEST_SRCS:%.c=$(BUILD)/%.o)
RECORD_TEST_BIN := $(BUILD)/tests/record/test-record
# Which reruns under the fallbacks record_kernel makes (SCT_TEST_RERUNS, record_kernel.c): all
# of them, but only the perf backend's under the sanitizers; the kernel matrix passes kernel.
RECORD_RERUNS ?= $(if $(filter 1,$(SAN)),user,all)
RECORD_ENV = SCT_RECORD=$(abspath $(BUILD)/sct-record) SCT_WORKLOADS=$(abspath $(BUILD)/tests/record/workloads) \
	SCT_TEST_RERUNS=$(RECORD_RERUNS)

$(BUILD)/tests/record/workloads/%: tests/record/workloads/%.c tests/record/workloads/workload.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(RECORD_WL_CFLAGS) $< -o $@

# --stack's ground truth: frame pointers, no sibling calls (-O2's), and each function's frame
# made at its entry: shrink-wrapping makes it only on the paths that call out, and a syscall
# on the others would show the caller's frame as its own.
$(BUILD)/tests/record/workloads/stacker: RECORD_WL_CFLAGS += -O1 -fno-omit-frame-pointer -fno-shrink-wrap

$(RECORD_TEST_BIN): $(RECORD_TEST_OBJS) $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ -lcriterion $(LIBSCT_LIBS)

.PHONY: test-record record-workloads
record-workloads: $(RECORD_WLS)

# --jobs 1: the tests measure exact counts and startup races; they do not share the CPUs.
test-record: $(RECORD_TEST_BIN) $(RECORD_WLS) $(BUILD)/sct-record $(BUILD)/sct-report
	$(RECORD_ENV) $(RECORD_TEST_BIN) --jobs 1

TESTS += test-record
