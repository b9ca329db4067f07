# sct-record's unit tests: the modules of record/ that run without root or BPF (the options,
# the filter, the targets table from /proc, the names of a recording's files), against the recorder's
# own objects.
#   make test-record-unit
RECORD_UNIT_SRCS := $(wildcard tests/record/unit/*.c)
RECORD_UNIT_OBJS := $(RECORD_UNIT_SRCS:%.c=$(BUILD)/%.o)
RECORD_UNIT_BIN := $(BUILD)/tests/record/test-record-unit
# The objects under test; none of them reaches into a backend.
RECORD_UNIT_DEPS := $(addprefix $(BUILD)/record/,cli.o detail_filter.o output/output.o host/targets.o \
	host/syscall_table.o)

$(RECORD_UNIT_OBJS): override CFLAGS += -Irecord

$(RECORD_UNIT_BIN): $(RECORD_UNIT_OBJS) $(RECORD_UNIT_DEPS) $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ -lcriterion $(LIBSCT_LIBS) -lbpf -pthread

.PHONY: test-record-unit
test-record-unit: $(RECORD_UNIT_BIN)
	$(RECORD_UNIT_BIN)

TESTS += test-record-unit
