# bpf/: the CO-RE programs, the vmlinux.h they are built from and the skeleton record/ loads.
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
LLVM_STRIP ?= llvm-strip
BPF_OBJ := $(BUILD)/bpf/sct.bpf.o
BPF_SKEL := $(BUILD)/sct.skel.h
BPF_LSKELS := $(BUILD)/sct_plain.lskel.h $(BUILD)/sct_args.lskel.h
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) -Wall -Wextra \
	-Wno-unused-parameter $(WERROR) -I$(BUILD) -Ibpf -MMD -MP

$(BUILD)/vmlinux.h:
	$(call msg,BTF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@

# DWARF is stripped (BTF stays): the skeleton embeds the object, and run time needs no DWARF.
# $(1): extra clang flags (the benchmark's floor variant: tests/bench/bench.mk).
define bpf_compile
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) $(1) -MF $(@:.o=.d) -MT $@ -c $< -o $@.tmp
	$(Q)$(LLVM_STRIP) -g $@.tmp -o $@ && rm -f $@.tmp
endef

# The object of every program, for the ordinary skeleton; the light skeletons' objects carry
# one pair of syscall programs each (bpf/sct.bpf.c, SCT_PROGS), and leave the helpers of the
# others unused: the full object still warns of a helper nothing uses.
BPF_VARIANT = -DSCT_PROGS=SCT_PROGS_$(1) -Wno-unused-function

$(BPF_OBJ): bpf/sct.bpf.c $(BUILD)/vmlinux.h
	$(call bpf_compile,)

$(BUILD)/bpf/sct_plain.bpf.o: bpf/sct.bpf.c $(BUILD)/vmlinux.h
	$(call bpf_compile,$(call BPF_VARIANT,PLAIN))

$(BUILD)/bpf/sct_args.bpf.o: bpf/sct.bpf.c $(BUILD)/vmlinux.h
	$(call bpf_compile,$(call BPF_VARIANT,ARGS))

# Two kinds of skeleton, and record/ picks one at run time from what the kernel offers.
# The light skeleton (-L): the kernel applies the CO-RE relocations and finds the attach
# points itself, so the recorder never parses the 5 MB vmlinux BTF in userspace. Measured
# here: load + attach costs ~15 ms of CPU instead of ~95 ms, which is most of the recorder's
# CPU budget for a 1,000,000-syscall trace. It needs in-kernel CO-RE (Linux 5.17); the
# ordinary skeleton, relocated by libbpf in userspace, is the fallback before that, and
# without task storage (only its object has the hash pair).
# Pattern rules: the benchmark's floor objects under $(BUILD)/bench/ get their skeletons alike.
# Both light skeletons are named sct_lskel: record/load_light.c is compiled once for each.
%/sct_plain.lskel.h: %/bpf/sct_plain.bpf.o bpf/build.mk
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton -L $< name sct_lskel > $@.tmp && mv $@.tmp $@

%/sct_args.lskel.h: %/bpf/sct_args.bpf.o bpf/build.mk
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton -L $< name sct_lskel > $@.tmp && mv $@.tmp $@

%/sct.skel.h: %/bpf/sct.bpf.o bpf/build.mk
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name sct_skel > $@.tmp && mv $@.tmp $@
