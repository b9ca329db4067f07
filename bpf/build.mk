# bpf/: the CO-RE programs, the vmlinux.h they are built from and the skeleton record/ loads.
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
LLVM_STRIP ?= llvm-strip
BPF_OBJ := $(BUILD)/bpf/sct.bpf.o
BPF_SKEL := $(BUILD)/sct.skel.h
BPF_LSKEL := $(BUILD)/sct.lskel.h
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

# Two skeletons of one object, and record/ picks one at run time from what the kernel offers.
# The light skeleton (-L): the kernel applies the CO-RE relocations and finds the attach
# points itself, so the recorder never parses the 5 MB vmlinux BTF in userspace. Measured
# here: load + attach costs ~15 ms of CPU instead of ~95 ms, which is most of the recorder's
# CPU budget for a 1,000,000-syscall trace. It needs in-kernel CO-RE (Linux 5.17); the
# ordinary skeleton, relocated by libbpf in userspace, is the fallback before that.
$(BPF_LSKEL): $(BPF_OBJ) bpf/build.mk
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton -L $< name sct_lskel > $@.tmp && mv $@.tmp $@

$(BPF_SKEL): $(BPF_OBJ) bpf/build.mk
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name sct_skel > $@.tmp && mv $@.tmp $@
