# libsct: the format library every tool links.
LIBSCT := $(BUILD)/libsct.a
LIBSCT_SRCS := $(wildcard format/*.c)
LIBSCT_OBJS := $(LIBSCT_SRCS:%.c=$(BUILD)/%.o)
LIBSCT_LIBS := -lcbor -llz4 -lz

# The per-record column loops vectorise at -O3 (the rest of the library does not care).
$(BUILD)/format/columns.o $(BUILD)/format/block_encode.o $(BUILD)/format/block_decode.o \
	$(BUILD)/format/reader.o: override CFLAGS += -O3

$(LIBSCT): $(LIBSCT_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

ALL += $(LIBSCT)
