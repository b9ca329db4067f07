# sct-report and sct-convert: the offline tools.
REPORT_COMMON := strtab hashmap outbuf names sessions input window cgroups tasks filter footer csv jsonl \
	samples args fdpaths
# jsonl.c shares libsct's UTF-8 decoder, which the library does not export: linked as an object.
REPORT_COMMON_OBJS := $(REPORT_COMMON:%=$(BUILD)/report/%.o) $(BUILD)/format/utf8.o
REPORT_OBJS := $(REPORT_COMMON_OBJS) $(addprefix $(BUILD)/report/,latency.o summary.o hist.o \
	timeline.o tree.o report_main.o)
CONVERT_OBJS := $(REPORT_COMMON_OBJS) $(BUILD)/report/clickhouse.o $(BUILD)/report/convert_main.o
REPORT_LIBS := -lm

$(BUILD)/sct-report: $(REPORT_OBJS) $(LIBSCT)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(REPORT_OBJS) $(LIBSCT) $(LIBSCT_LIBS) $(REPORT_LIBS)

$(BUILD)/sct-convert: $(CONVERT_OBJS) $(LIBSCT)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CONVERT_OBJS) $(LIBSCT) $(LIBSCT_LIBS) $(REPORT_LIBS) -lxxhash

SHIP_OBJS := $(addprefix $(BUILD)/report/,ship_http.o ship_sql.o ship_ident.o ship_state.o ship_file.o ship_main.o \
	names.o outbuf.o)

# sct-ship runs sct-convert for the rows: both load paths write the same columns.
$(BUILD)/sct-ship: $(SHIP_OBJS) $(LIBSCT)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(SHIP_OBJS) $(LIBSCT) $(LIBSCT_LIBS) -lcurl

.PHONY: report-objs
report-objs: $(REPORT_OBJS) $(CONVERT_OBJS) $(SHIP_OBJS)

ALL += $(BUILD)/sct-report $(BUILD)/sct-convert $(BUILD)/sct-ship
INSTALL_BINS += $(BUILD)/sct-report $(BUILD)/sct-convert $(BUILD)/sct-ship
