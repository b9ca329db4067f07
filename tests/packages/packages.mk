# The Debian packages as a person installs them (tests/packages/test_deb.sh; root).
#   make test-deb   make deb on a clean clone of HEAD, the packages installed into a fresh
#                   Debian 12 root (mmdebstrap), used from their installed paths, upgraded,
#                   removed and purged; the bash completion driven as bash does
.PHONY: test-deb
test-deb:
	$(Q)bash tests/packages/test_deb.sh .
