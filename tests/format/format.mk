# Format library tests. format_craft.c also serves the trace generators of the other suites.
#   make test-format     Criterion suite (SAN=1 for ASan+UBSan)
FORMAT_TEST_SRCS := $(wildcard tests/format/format_*.c)
FORMAT_TEST_OBJS := $(FORMAT_TEST_SRCS:%.c=$(BUILD)/%.o)
FORMAT_TESTS_BIN := $(BUILD)/tests/format/format_tests

# --wrap=crc32: format_hostile.c counts the library's CRC work (work done, not time taken).
# The suite tests internal functions too, so it links libsct's objects, not the archive
# whose only globals are the exported sct_ names.
$(FORMAT_TESTS_BIN): $(FORMAT_TEST_OBJS) $(LIBSCT_OBJS)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -Wl,--wrap=crc32 -o $@ $^ $(LIBSCT_LIBS) -lcriterion -lpthread

.PHONY: test-format
test-format: $(FORMAT_TESTS_BIN)
	$(FORMAT_TESTS_BIN) $(FORMAT_TEST_ARGS)

ALL += $(FORMAT_TESTS_BIN)
TESTS += test-format
