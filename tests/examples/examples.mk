# spec/examples: example traces written by libsct's writer (tests/examples/make_examples.c),
# each with its full decoding as JSON read back through libsct's reader
# (tests/examples/sct_dump.c).
#   make examples        regenerate spec/examples/*.sct and *.json (commit the result)
#   make test-examples   regenerate into $(BUILD)/examples and check that the committed files
#                        are identical, that each NAME.sct still decodes to NAME.json, and that
#                        spec/sct_read.py (a reader written from the spec alone) decodes it alike;
#                        and that FORMAT.md's appendix A still shows small.sct's bytes
# Frozen examples were written by an older writer and are never regenerated: files of older
# versions that readers must still read. test-examples checks that each NAME.sct still decodes
# to its committed NAME.json, through libsct and spec/sct_read.py; `make examples` keeps them.
EXAMPLES := syscall task fork exec exit cgroup lost warning all_types attribution sample schema_edges key_versions \
	header_strings recording bad_recording_id args totals bad_totals stacks bad_stack captures small multi_block \
	truncated corrupt_block bad_block unknown_types no_trailer concatenated bad_header label_only
FROZEN_EXAMPLES := args_1_3
# Examples that also have NAME.tasks.json: which task made each record (FORMAT.md 9.2)
TASK_EXAMPLES := attribution all_types
EXAMPLES_GEN := $(BUILD)/tests/examples/make_examples
SCT_DUMP := $(BUILD)/tests/examples/sct_dump

$(EXAMPLES_GEN): $(BUILD)/tests/examples/make_examples.o $(BUILD)/tests/format/format_craft.o \
		$(BUILD)/fuzz/frame_fixup.o $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LIBSCT_LIBS)

$(SCT_DUMP): $(BUILD)/tests/examples/sct_dump.o $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LIBSCT_LIBS)

.PHONY: examples test-examples
examples: $(EXAMPLES_GEN) $(SCT_DUMP)
	$(call msg,GEN,spec/examples)
	$(Q)rm -f $(foreach n,$(EXAMPLES),spec/examples/$(n).sct spec/examples/$(n).json)
	$(Q)$(EXAMPLES_GEN) spec/examples
	$(Q)for n in $(EXAMPLES); do \
		$(SCT_DUMP) spec/examples/$$n.sct > spec/examples/$$n.json || exit 1; done
	$(Q)for n in $(TASK_EXAMPLES); do \
		$(SCT_DUMP) --tasks spec/examples/$$n.sct > spec/examples/$$n.tasks.json || exit 1; done

test-examples: $(EXAMPLES_GEN) $(SCT_DUMP)
	$(Q)rm -rf $(BUILD)/examples && mkdir -p $(BUILD)/examples
	$(Q)$(EXAMPLES_GEN) $(BUILD)/examples
	$(Q)pass=0; fail=0; \
	check() { if "$$@"; then pass=$$((pass + 1)); else fail=$$((fail + 1)); echo "FAIL: $$*"; fi; }; \
	for n in $(EXAMPLES); do \
		check cmp -s spec/examples/$$n.sct $(BUILD)/examples/$$n.sct; \
		$(SCT_DUMP) spec/examples/$$n.sct > $(BUILD)/examples/$$n.json; \
		check cmp -s spec/examples/$$n.json $(BUILD)/examples/$$n.json; \
		check python3 spec/sct_read.py --check spec/examples/$$n.json spec/examples/$$n.sct; \
	done; \
	for n in $(TASK_EXAMPLES); do \
		$(SCT_DUMP) --tasks spec/examples/$$n.sct > $(BUILD)/examples/$$n.tasks.json; \
		check cmp -s spec/examples/$$n.tasks.json $(BUILD)/examples/$$n.tasks.json; \
		check python3 spec/sct_read.py --check-tasks spec/examples/$$n.tasks.json spec/examples/$$n.sct; \
	done; \
	for n in $(FROZEN_EXAMPLES); do \
		$(SCT_DUMP) spec/examples/$$n.sct > $(BUILD)/examples/$$n.json; \
		check cmp -s spec/examples/$$n.json $(BUILD)/examples/$$n.json; \
		check python3 spec/sct_read.py --check spec/examples/$$n.json spec/examples/$$n.sct; \
	done; \
	extra=$$(ls spec/examples | grep -E '\.(sct|json)$$' | sed -E 's/(\.tasks)?\.[a-z]*$$//' | sort -u | \
		grep -vxF "$$(printf '%s\n' $(EXAMPLES) $(FROZEN_EXAMPLES))"); \
	check test -z "$$extra"; \
	check python3 spec/sct_read.py --check-appendix spec/FORMAT.md spec/examples/small.sct; \
	echo "examples: $$pass passed, $$fail failed"; \
	if [ $$fail -ne 0 ]; then echo "run 'make examples' and review the diff (git diff spec/examples);" \
		"a frozen example ($(FROZEN_EXAMPLES)) that fails is a reader that no longer reads an old file"; fi; \
	test $$fail -eq 0

TESTS += test-examples
