#!/usr/bin/env bash
# What the browser tests drive (test/browser/): Debian's Chromium, headless, through puppeteer-core
# (an npm devDependency that never downloads a browser of its own).
#   install-browser.sh            installs the missing packages
#   install-browser.sh --missing  only prints the missing packages, one per line (for
#                                 test/support/install-system-deps.sh, which installs them)
# Running it again once everything is present changes nothing.
set -euo pipefail

missing=()
if [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi

source "$(dirname "$0")/apt.sh"
report_or_install install-browser "${1:-}" "${missing[@]}"
