# Fleet analysis in ClickHouse: sct-convert --to clickhouse and sct-ship against real
# clickhouse-server processes (two shards and Distributed tables) that the tests start on
# loopback ports in a temporary directory and stop at the end (fleet_servers.sh, which
# bench-fleet uses too).
#   make test-fleet    both load paths give sct-report's figures exactly, and calls joined
#                      with their stacks sct-convert --to folded's counts; re-sending adds
#                      nothing; a server killed mid-ship and restarted, a shipper killed
#                      mid-file and run again: still exact; fleet_rowbinary_test.sh: RowBinary
#                      loads the same rows as TabSeparated; and first test-fleet-security
#   make test-fleet-security   fleet_security_test.sh: hostile files, servers and state folders
#                      do nothing to other hosts' rows, root's files or the terminal
# Both fail under CI=true without clickhouse-server, and skip loudly otherwise.
GEN_FLEET := $(BUILD)/tests/fleet/gen_fleet
# Recursive (=): GEN_REPORT is set by tests/report/report.mk, included after this file.
FLEET_ENV = SCT_REPORT=$(abspath $(BUILD)/sct-report) SCT_CONVERT=$(abspath $(BUILD)/sct-convert) \
	SCT_SHIP=$(abspath $(BUILD)/sct-ship) SCT_GEN_FLEET=$(abspath $(GEN_FLEET)) SCT_GEN_REPORT=$(abspath $(GEN_REPORT))

$(GEN_FLEET): $(BUILD)/tests/fleet/gen_fleet.o $(BUILD)/tests/format/format_craft.o $(LIBSCT)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LIBSCT_LIBS)

FLEET_BINS = $(GEN_FLEET) $(BUILD)/tests/report/gen_report $(BUILD)/sct-report $(BUILD)/sct-convert $(BUILD)/sct-ship

.PHONY: test-fleet test-fleet-security
test-fleet: test-fleet-security $(FLEET_BINS)
	$(FLEET_ENV) bash tests/fleet/fleet_test.sh
	$(FLEET_ENV) bash tests/fleet/fleet_rowbinary_test.sh

test-fleet-security: $(FLEET_BINS)
	$(FLEET_ENV) bash tests/fleet/fleet_security_test.sh

TESTS += test-fleet
