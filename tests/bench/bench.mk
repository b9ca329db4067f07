# The benchmarks (BENCHMARKS.md: what each measures, and the figures). Included after the other
# suites' .mk files: they run those suites' trace generators and servers.
#   make bench-format    writer/reader speed and size on 10M synthetic SYSCALL records
#   make bench-report    summary and CSV speed on 10,000,000 records, perf script/report beside
#   make bench-fleet     rows/s loaded: CSV, TabSeparated and RowBinary through clickhouse-client
#                        and sct-ship, the converters and the server alone
#   make bench-record    the recorder benchmark (BENCHMARKS.md): sct against its floor
#                        (build/bench/sct-record), beside its peers; then --stack beside
#                        perf record -g and perf trace --call-graph fp (BENCH_STACKS)
#   make bench-args      what sct-record --args adds: raw arguments, a path, a socket address, an argv
BENCH_FORMAT_BIN := $(BUILD)/tests/bench/bench_format
RECORD_BENCH_BIN := $(BUILD)/tests/bench/bench-record
ARGS_BENCH_BIN := $(BUILD)/tests/bench/bench-args
STACK_WRITER_BIN := $(BUILD)/tests/bench/bench_stack_writer

$(BENCH_FORMAT_BIN): $(BUILD)/tests/bench/bench_format.o $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBSCT_LIBS)

$(RECORD_BENCH_BIN): $(BUILD)/tests/bench/bench_record.o $(BUILD)/tests/bench/bench_common.o $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LIBSCT_LIBS) -lbpf

$(ARGS_BENCH_BIN): $(BUILD)/tests/bench/bench_args.o $(BUILD)/tests/bench/bench_common.o $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LIBSCT_LIBS) -lbpf

# The stacks rows' generator: built as tests/record/record.mk builds stacker (frame pointers,
# no sibling calls, each frame made at its function's entry), so every tracer walks 4 frames.
$(STACK_WRITER_BIN): tests/bench/bench_stack_writer.c tests/record/workloads/workload.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(RECORD_WL_CFLAGS) -O1 -fno-omit-frame-pointer -fno-shrink-wrap $< -o $@

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

.PHONY: bench-format bench-report bench-fleet bench-record bench-args
bench-format: $(BENCH_FORMAT_BIN)
	$(BENCH_FORMAT_BIN) $(BENCH_FORMAT_ARGS)

bench-report: $(GEN_REPORT) $(BENCH_FORMAT_BIN) $(BUILD)/sct-report $(BUILD)/sct-convert
	$(REPORT_ENV) BUILD=$(BUILD) bash tests/bench/bench_report.sh

bench-fleet: $(GEN_FLEET) $(BUILD)/sct-convert $(BUILD)/sct-ship
	$(FLEET_ENV) bash tests/bench/bench_fleet.sh

bench-record: $(RECORD_BENCH_BIN) $(RECORD_WLS) $(STACK_WRITER_BIN) $(BUILD)/sct-record $(RECORD_FLOOR_BIN)
	$(RECORD_ENV) SCT_RECORD_FLOOR=$(abspath $(RECORD_FLOOR_BIN)) \
		SCT_STACK_WRITER=$(abspath $(STACK_WRITER_BIN)) $(RECORD_BENCH_BIN)

bench-args: $(ARGS_BENCH_BIN) $(RECORD_WLS) $(BUILD)/sct-record
	$(RECORD_ENV) $(ARGS_BENCH_BIN)

ALL += $(BENCH_FORMAT_BIN)
BENCHES += bench-format bench-report bench-fleet bench-record bench-args
