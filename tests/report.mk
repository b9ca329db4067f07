# sct-report / sct-convert tests and benchmark. Traces of known content are made
# with libsct's writer; no recorder or root is needed.
#   make test-report     Criterion tests (tests/report_*.c) and the CSV/JSON parser checks
#   make bench-report    summary and CSV speed on 10,000,000 records, perf script/report beside
REPORT_TEST_SRCS := $(wildcard tests/report_*.c)
REPORT_TEST_OBJS := $(REPORT_TEST_SRCS:%.c=$(BUILD)/%.o)
REPORT_TEST_BIN := $(BUILD)/tests/test-report
GEN_REPORT := $(BUILD)/tests/gen_report
REPORT_ENV := SCT_REPORT=$(abspath $(BUILD)/sct-report) SCT_CONVERT=$(abspath $(BUILD)/sct-convert) \
	SCT_GEN_REPORT=$(abspath $(GEN_REPORT)) SCT_REPORT_CONVERT_PY=$(abspath tests/report_convert.py)

# report_latency.c, report_tables.c and report_clickhouse.c test report/ modules directly; the
# others run the tools.
$(BUILD)/tests/report_%.o: override CFLAGS += -Ireport/lib
$(REPORT_TEST_BIN): $(REPORT_TEST_OBJS) $(BUILD)/report/report/latency.o $(BUILD)/report/convert/clickhouse.o \
		$(REPORT_LIB) $(BUILD)/fuzz/frame_fixup.o $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ -lcriterion $(LIBSCT_LIBS) -lm -lxxhash

$(GEN_REPORT): $(BUILD)/tests/gen_report.o $(BUILD)/tests/format_craft.o $(BUILD)/fuzz/frame_fixup.o $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LIBSCT_LIBS)

.PHONY: test-report bench-report
test-report: $(REPORT_TEST_BIN) $(GEN_REPORT) $(BUILD)/sct-report $(BUILD)/sct-convert
	$(REPORT_ENV) $(REPORT_TEST_BIN)

bench-report: $(GEN_REPORT) $(BUILD)/tests/bench_format $(BUILD)/sct-report $(BUILD)/sct-convert
	$(REPORT_ENV) BUILD=$(BUILD) bash tests/bench_report.sh

TESTS += test-report
BENCHES += bench-report
