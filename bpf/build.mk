# bpf/: the CO-RE programs, the vmlinux.h they are built from and the skeleton record/ loads.
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
LLVM_STRIP ?= llvm-strip
BPF_OBJ := $(BUILD)/bpf/sct.bpf.o
BPF_SKEL := $(BUILD)/sct.skel.h
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) -Wall -Wextra \
	-Wno-unused-parameter $(WERROR) -I$(BUILD) -Ibpf -MMD -MP

$(BUILD)/vmlinux.h:
	$(call msg,BTF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@

# DWARF is stripped (BTF stays): the skeleton embeds the object, and run time needs no DWARF.
$(BPF_OBJ): bpf/sct.bpf.c $(BUILD)/vmlinux.h
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -MF $(@:.o=.d) -MT $@ -c $< -o $@.tmp
	$(Q)$(LLVM_STRIP) -g $@.tmp -o $@ && rm -f $@.tmp

# A light skeleton (-L): the kernel applies the CO-RE relocations and finds the attach
# points itself, so the recorder never parses the 5 MB vmlinux BTF in userspace. Measured
# here: load + attach costs ~15 ms of CPU instead of ~95 ms, which is most of the recorder's
# CPU budget for a 1,000,000-syscall trace.
$(BPF_SKEL): $(BPF_OBJ) bpf/build.mk
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton -L $< > $@.tmp && mv $@.tmp $@
