# Format library tests and benchmark.
#   make test-format     Criterion suite (SAN=1 for ASan+UBSan)
#   make bench-format    writer/reader speed and size on 10M synthetic SYSCALL records
FORMAT_TEST_SRCS := $(wildcard tests/format_*.c)
FORMAT_TEST_OBJS := $(FORMAT_TEST_SRCS:%.c=$(BUILD)/%.o)
FORMAT_TESTS_BIN := $(BUILD)/tests/format_tests
BENCH_FORMAT_BIN := $(BUILD)/tests/bench_format

# --wrap=crc32: format_hostile.c counts the library's CRC work (work done, not time taken).
# The suite tests internal functions too, so it links libsct's objects, not the archive
# whose only globals are the exported sct_ names.
$(FORMAT_TESTS_BIN): $(FORMAT_TEST_OBJS) $(LIBSCT_OBJS)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -Wl,--wrap=crc32 -o $@ $^ $(LIBSCT_LIBS) -lcriterion -lpthread

$(BENCH_FORMAT_BIN): $(BUILD)/tests/bench_format.o $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBSCT_LIBS)

.PHONY: test-format bench-format
test-format: $(FORMAT_TESTS_BIN)
	$(FORMAT_TESTS_BIN) $(FORMAT_TEST_ARGS)

bench-format: $(BENCH_FORMAT_BIN)
	$(BENCH_FORMAT_BIN) $(BENCH_FORMAT_ARGS)

ALL += $(FORMAT_TESTS_BIN) $(BENCH_FORMAT_BIN)
TESTS += test-format
BENCHES += bench-format
