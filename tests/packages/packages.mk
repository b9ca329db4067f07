# The Debian packages as a person installs them (tests/packages/test_deb.sh; root).
#   make test-deb   make deb on a clean clone of HEAD, the packages installed into a fresh
#                   Debian 12 root (mmdebstrap), used from their installed paths, upgraded,
#                   removed and purged; the bash completion driven as bash does
.PHONY: test-deb
test-deb:
	$(Q)bash tests/packages/test_deb.sh .

# The bash completion of the tree against the programs of the build, as bash drives it.
#   make test-completion   (root for tracefs's names; under CI=true it fails without them)
.PHONY: test-completion
test-completion: $(INSTALL_BINS)
	$(Q)rm -rf $(BUILD)/completion && mkdir -p $(BUILD)/completion
	$(Q)cp report/sct.bash-completion $(BUILD)/completion/sct-record
	$(Q)for p in sct-report sct-convert sct-ship; do ln -s sct-record $(BUILD)/completion/$$p; done
	$(Q)PATH=$(abspath $(BUILD)):$$PATH bash tests/packages/test_completion.sh $(BUILD)/completion

TESTS += test-completion
