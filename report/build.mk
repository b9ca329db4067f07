# The offline tools over one library of reading code. Dependencies run one way: each
# program (report/report, report/convert, report/ship) -> report/lib -> libsct.
#   report/lib      libreport.a: inputs, tables, filters, names, output buffers, the footer
#   report/report   sct-report;  report/convert  sct-convert;  report/ship  sct-ship
REPORT_LIB_SRCS := strtab hashmap outbuf names sessions trace_input window reorder live_input follow cgroup_table \
	tasks filter jobs \
	footer csv_field json_string samples args_text args_layout cstring_escape sockaddr_text name_table peer_text socket_table fdpaths sym_index demangle debug_dir stacks
# json_string.c shares libsct's UTF-8 decoder, which the library does not export: linked as an object.
REPORT_LIB_OBJS := $(REPORT_LIB_SRCS:%=$(BUILD)/report/lib/%.o) $(BUILD)/format/utf8.o
REPORT_LIB := $(BUILD)/report/libreport.a
REPORT_OBJS := $(addprefix $(BUILD)/report/report/,latency.o summary.o hist_bars.o timeline.o interval.o select.o proc_tree.o \
	html_heat.o html_page.o stack_report.o report_main.o)
CONVERT_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(sort $(wildcard report/convert/*.c)))
SHIP_OBJS := $(addprefix $(BUILD)/report/ship/,ship_http.o ship_sql.o ship_ident.o ship_state.o ship_file.o \
	ship_main.o)
REPORT_LIBS := -lm -pthread -lelf -lstdc++

# Every program and the library find the library's headers by name.
$(BUILD)/report/%.o: override CFLAGS += -Ireport/lib
$(BUILD)/report/%.o: override CXXFLAGS += -Ireport/lib

$(REPORT_LIB): $(REPORT_LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

$(BUILD)/sct-report: $(REPORT_OBJS) $(REPORT_LIB) $(LIBSCT)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(REPORT_OBJS) $(REPORT_LIB) $(LIBSCT) $(LIBSCT_LIBS) $(REPORT_LIBS)

$(BUILD)/sct-convert: $(CONVERT_OBJS) $(REPORT_LIB) $(LIBSCT)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CONVERT_OBJS) $(REPORT_LIB) $(LIBSCT) $(LIBSCT_LIBS) $(REPORT_LIBS) -lxxhash

# sct-ship runs sct-convert for the rows: both load paths write the same columns.
$(BUILD)/sct-ship: $(SHIP_OBJS) $(REPORT_LIB) $(LIBSCT)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(SHIP_OBJS) $(REPORT_LIB) $(LIBSCT) $(LIBSCT_LIBS) -lcurl

.PHONY: report-objs
report-objs: $(REPORT_OBJS) $(CONVERT_OBJS) $(SHIP_OBJS) $(REPORT_LIB)

ALL += $(BUILD)/sct-report $(BUILD)/sct-convert $(BUILD)/sct-ship
INSTALL_BINS += $(BUILD)/sct-report $(BUILD)/sct-convert $(BUILD)/sct-ship
# A loop a record that vectorises at -O3 (the rest of the tools do not care).
$(BUILD)/report/lib/footer.o: override CFLAGS += -O3
