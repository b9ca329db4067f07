# libsct: the format library every tool links, built twice from one set of objects:
# libsct.a (what the tools link) and libsct.so.$(LIBSCT_VERSION) with SONAME libsct.so.$(LIBSCT_SOMAJOR).
# Bump LIBSCT_SOMAJOR on any incompatible change to sct.h (a struct layout, an enum value,
# a signature); a new function only bumps the minor of LIBSCT_VERSION.
LIBSCT_VERSION := 7.2.0
LIBSCT_SOMAJOR := 7
LIBSCT := $(BUILD)/libsct.a
LIBSCT_SO := $(BUILD)/libsct.so.$(LIBSCT_VERSION)
LIBSCT_SRCS := $(wildcard format/*.c)
LIBSCT_OBJS := $(LIBSCT_SRCS:%.c=$(BUILD)/%.o)
LIBSCT_LIBS := -lcbor -llz4 -lz -pthread
LIBSCT_PC_REQUIRES := libcbor liblz4 zlib
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include

# Only what sct.h declares is exported (it sets default visibility around its declarations).
# The objects depend on this file so that a change of these flags rebuilds them.
$(LIBSCT_OBJS): override CFLAGS += -fvisibility=hidden -fPIC
$(LIBSCT_OBJS): format/build.mk
# The per-record column loops vectorise at -O3 (the rest of the library does not care).
$(BUILD)/format/columns.o $(BUILD)/format/block_encode.o $(BUILD)/format/block_decode.o \
	$(BUILD)/format/reader.o: override CFLAGS += -O3

# In an archive a hidden symbol is still global, so a program linking libsct.a could collide
# with its internal names: link the objects into one and make every hidden symbol local.
$(LIBSCT): $(LIBSCT_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ $(@:.a=.o)
	$(Q)$(LD) -r -o $(@:.a=.o) $^
	$(Q)objcopy --localize-hidden $(@:.a=.o)
	$(Q)ar rcs $@ $(@:.a=.o)

$(LIBSCT_SO): $(LIBSCT_OBJS)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -shared -Wl,-soname,libsct.so.$(LIBSCT_SOMAJOR) -Wl,--no-undefined \
		-o $@ $^ $(LIBSCT_LIBS)

# $(call libsct_install,ROOT): the libraries, their symlinks, sct.h and libsct.pc under ROOT
# (DESTDIR); libsct.pc names the final LIBDIR and INCLUDEDIR.
define libsct_install
	$(Q)install -d $(1)$(LIBDIR)/pkgconfig $(1)$(INCLUDEDIR)
	$(Q)install -m 0644 $(LIBSCT) $(1)$(LIBDIR)/
	$(Q)install -m 0755 $(LIBSCT_SO) $(1)$(LIBDIR)/
	$(Q)ln -sf $(notdir $(LIBSCT_SO)) $(1)$(LIBDIR)/libsct.so.$(LIBSCT_SOMAJOR)
	$(Q)ln -sf libsct.so.$(LIBSCT_SOMAJOR) $(1)$(LIBDIR)/libsct.so
	$(Q)install -m 0644 format/sct.h $(1)$(INCLUDEDIR)/
	$(Q)sed -e 's|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(LIBSCT_VERSION)|; s|@REQUIRES@|$(LIBSCT_PC_REQUIRES)|' \
		format/libsct.pc.in > $(1)$(LIBDIR)/pkgconfig/libsct.pc
endef

.PHONY: install-libsct
install-libsct: $(LIBSCT) $(LIBSCT_SO)
	$(call libsct_install,$(DESTDIR))

ALL += $(LIBSCT) $(LIBSCT_SO)
