# The recorder's tests on the kernels production runs (tests/kernels/): Debian 12's 6.1, its
# PREEMPT_RT build and 6.12, each booted in QEMU with this host's root shared read-only, and the
# running kernel on this host. Not part of make test: it downloads kernels once and emulates.
#   make test-kernels     one line per kernel, "kernel RELEASE: N passed, M failed"
# KERNEL_SUITES are the make targets each kernel runs. The guest sees the tree read-only: a
# suite's programs are built on the host first, so add them to KERNEL_SUITE_BINS.
# RECORD_RERUNS=kernel: under the perf backend, each kernel runs again only the suites that depend
# on the kernel (record_kernel.c); make test-record runs the others on the host.
KERNEL_SUITES := test-record
KERNEL_SUITE_BINS = $(RECORD_TEST_BIN) $(RECORD_WLS) $(BUILD)/sct-record $(BUILD)/sct-report
KERNEL_LOGS := $(BUILD)/kernels

.PHONY: test-kernels
test-kernels:
	$(Q)$(MAKE) -s --no-print-directory $(KERNEL_SUITE_BINS)
	$(Q)KERNEL_LOGS=$(abspath $(KERNEL_LOGS)) tests/kernels/matrix.sh \
		$(MAKE) --no-print-directory -k BUILD=$(BUILD) SAN=$(SAN) RECORD_RERUNS=kernel $(KERNEL_SUITES)
