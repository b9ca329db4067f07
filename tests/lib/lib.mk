# libsct as other programs link it.
#   make test-lib    only the names sct.h declares are exported (tests/lib/lib_symbols.sh); an
#                    install under $(BUILD)/lib-test serves pkg-config, and a program built
#                    from its flags alone reads an example trace (tests/lib/lib_link.sh)
LIB_TEST_ROOT := $(abspath $(BUILD))/lib-test

.PHONY: test-lib
test-lib: override LIBDIR = $(LIB_TEST_ROOT)/usr/lib
test-lib: override INCLUDEDIR = $(LIB_TEST_ROOT)/usr/include
test-lib: $(LIBSCT) $(LIBSCT_SO)
	$(Q)sh tests/lib/lib_symbols.sh $(LIBSCT) $(LIBSCT_SO) format/sct.h
	$(Q)rm -rf $(LIB_TEST_ROOT)
	$(call libsct_install,)
	$(Q)SOMAJOR=$(LIBSCT_SOMAJOR) CC="$(CC)" CXX="$(CXX)" LDFLAGS="$(LDFLAGS)" sh tests/lib/lib_link.sh $(LIBDIR) spec/examples/concatenated.sct \
		spec/examples/concatenated.json $(LIB_TEST_ROOT)

TESTS += test-lib
