# libsct: the format library every tool links.
LIBSCT := $(BUILD)/libsct.a
LIBSCT_SRCS := $(wildcard format/*.c)
LIBSCT_OBJS := $(LIBSCT_SRCS:%.c=$(BUILD)/%.o)
LIBSCT_LIBS := -lcbor -llz4 -lz

$(LIBSCT): $(LIBSCT_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

ALL += $(LIBSCT)
