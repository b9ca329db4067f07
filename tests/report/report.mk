# sct-report / sct-convert tests. Traces of known content are made with libsct's writer
# (gen_report.c, which also makes bench-report's and test-fleet's traces); no recorder or root
# is needed.
#   make test-report     Criterion tests (tests/report/report_*.c) and the CSV/JSON parser checks,
#                        then jobs_same.sh: -j2 and -j4 give the bytes of -j1 in every mode
REPORT_TEST_SRCS := $(wildcard tests/report/report_*.c)
REPORT_TEST_OBJS := $(REPORT_TEST_SRCS:%.c=$(BUILD)/%.o)
REPORT_TEST_BIN := $(BUILD)/tests/report/test-report
GEN_REPORT := $(BUILD)/tests/report/gen_report
REPORT_ENV := SCT_REPORT=$(abspath $(BUILD)/sct-report) SCT_CONVERT=$(abspath $(BUILD)/sct-convert) \
	SCT_GEN_REPORT=$(abspath $(GEN_REPORT)) SCT_REPORT_CONVERT_PY=$(abspath tests/report/report_convert.py) \
	SCT_REPORT_PERFETTO_PY=$(abspath tests/report/report_perfetto.py) SCT_REPORT_HTML_PY=$(abspath tests/report/report_html.py)

# report_latency.c, report_tables.c, report_sym_index.c and report_clickhouse.c test report/
# modules directly; the others run the tools.
$(BUILD)/tests/report/report_%.o: override CFLAGS += -Ireport/lib
$(REPORT_TEST_BIN): $(REPORT_TEST_OBJS) $(BUILD)/report/report/latency.o $(BUILD)/report/convert/clickhouse.o \
		$(REPORT_LIB) $(BUILD)/fuzz/frame_fixup.o $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ -lcriterion $(LIBSCT_LIBS) -lm -lxxhash -lelf -lstdc++

$(GEN_REPORT): $(BUILD)/tests/report/gen_report.o $(BUILD)/tests/format/format_craft.o \
		$(BUILD)/fuzz/frame_fixup.o $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LIBSCT_LIBS)

# Under ASan the generated trace is half as long (still the 6 blocks jobs_damage.py damages), and
# the examples and fuzz regressions are compared only within the concatenations that hold them
# all: each run is 5x slower, most of it starting the program.
JOBS_SAME_N := $(if $(filter 1,$(SAN)),50000,100000)
JOBS_SAME_INPUTS := $(if $(filter 1,$(SAN)),joined,each)

.PHONY: test-report
test-report: $(REPORT_TEST_BIN) $(GEN_REPORT) $(BUILD)/sct-report $(BUILD)/sct-convert
	$(REPORT_ENV) $(REPORT_TEST_BIN)
	$(REPORT_ENV) JOBS_N=$(JOBS_SAME_N) JOBS_INPUTS=$(JOBS_SAME_INPUTS) bash tests/report/jobs_same.sh

TESTS += test-report
