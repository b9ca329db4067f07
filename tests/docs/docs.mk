# The documents against the programs and the tree (tests/docs/check_docs.sh).
#   make test-docs   every option of each program's --help is in its man page; every man page
#                    renders without groff or man warnings; README.md's and the documents'
#                    links to files of the tree resolve
DOCS := README.md record/sct-record.8.md report/report/sct-report.1.md \
	report/convert/sct-convert.1.md report/ship/sct-ship.8.md report/ship/CLICKHOUSE.md \
	spec/sct.5.md tests/kernels/README.md tests/bench/BENCHMARKS.md

.PHONY: test-docs
test-docs: $(MANS) $(BUILD)/sct-record $(BUILD)/sct-report $(BUILD)/sct-convert $(BUILD)/sct-ship
	$(Q)sh tests/docs/check_docs.sh $(BUILD)/man $(BUILD)/sct-record=sct-record.8 \
		$(BUILD)/sct-report=sct-report.1 $(BUILD)/sct-convert=sct-convert.1 \
		$(BUILD)/sct-ship=sct-ship.8 sct.5 -- $(DOCS)

TESTS += test-docs
