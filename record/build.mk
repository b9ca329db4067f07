# record/: sct-record. The lifecycle and the options at the top; the backends (bpf/, perf/), what
# writes the trace (output/) and what it learns of the host (host/) in folders of their own.
RECORD_BIN := $(BUILD)/sct-record
RECORD_DIRS := record record/bpf record/perf record/output record/host record/stack
RECORD_SRCS := $(foreach d,$(RECORD_DIRS),$(wildcard $(d)/*.c))
# load_light.c is compiled twice: against the plain light skeleton, and the --args one.
RECORD_OBJS := $(RECORD_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/record/bpf/load_light_args.o \
	$(BUILD)/record/host/syscall_table.o
RECORD_LIBS := -lbpf -ldw -lelf -lz -pthread
RECORD_COMPAT_ARCH := $(if $(filter x86,$(ARCH)),i386,)

# The syscall tables come from the kernel headers of this build host, never from a run-time tool.
$(BUILD)/record/host/syscall_table.c: record/host/syscall_table.awk record/build.mk
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q){ echo '/* Generated from <asm/unistd_*.h> by record/build.mk: do not edit. */'; \
	  echo '#include "syscall_table.h"'; \
	  echo '#include <asm/unistd_64.h>' | $(CC) -E -dM -x c - | \
	    awk -v table=native -f record/host/syscall_table.awk; \
	  if [ -n "$(RECORD_COMPAT_ARCH)" ]; then \
	    echo '#include <asm/unistd_32.h>' | $(CC) -E -dM -x c - | \
	      awk -v table=compat -f record/host/syscall_table.awk; \
	  else awk -v table=compat -f record/host/syscall_table.awk < /dev/null; fi; \
	  echo 'const char syscall_table_compat_arch[] = "$(RECORD_COMPAT_ARCH)";'; \
	} > $@.tmp && mv $@.tmp $@

$(BUILD)/record/host/syscall_table.o: $(BUILD)/record/host/syscall_table.c
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -Irecord/host -c $< -o $@

# Every record object may include a skeleton: they must exist before any of them compiles.
$(RECORD_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/record/bpf/load_light_args.o: | $(BPF_SKEL) $(BPF_LSKELS)

$(BUILD)/record/bpf/load_light_args.o: record/bpf/load_light.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -DLOAD_LIGHT_ARGS=1 -c $< -o $@

$(RECORD_BIN): $(RECORD_OBJS) $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $(RECORD_OBJS) -o $@ $(LIBSCT) $(LIBSCT_LIBS) $(RECORD_LIBS)

ALL += $(RECORD_BIN)
INSTALL_BINS += $(RECORD_BIN)
