# The benchmarks (BENCHMARKS.md: what each measures, and the figures). Included after the other
# suites' .mk files: they run those suites' trace generators and servers.
#   make bench-format    writer/reader speed and size on 10M synthetic SYSCALL records
#   make bench-report    summary and CSV speed on 10,000,000 records, perf script/report beside
#   make bench-fleet     rows/s loaded: CSV, --to clickhouse | clickhouse-client, sct-ship
# bench-record and bench-args are in tests/record.mk, beside the recorder's floor they build.
BENCH_FORMAT_BIN := $(BUILD)/tests/bench/bench_format

$(BENCH_FORMAT_BIN): $(BUILD)/tests/bench/bench_format.o $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBSCT_LIBS)

.PHONY: bench-format bench-report bench-fleet
bench-format: $(BENCH_FORMAT_BIN)
	$(BENCH_FORMAT_BIN) $(BENCH_FORMAT_ARGS)

bench-report: $(GEN_REPORT) $(BENCH_FORMAT_BIN) $(BUILD)/sct-report $(BUILD)/sct-convert
	$(REPORT_ENV) BUILD=$(BUILD) bash tests/bench/bench_report.sh

bench-fleet: $(GEN_FLEET) $(BUILD)/sct-convert $(BUILD)/sct-ship
	$(FLEET_ENV) bash tests/bench/bench_fleet.sh

ALL += $(BENCH_FORMAT_BIN)
BENCHES += bench-format bench-report bench-fleet
