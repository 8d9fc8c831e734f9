#!/usr/bin/env bash
# What the browser tests drive (test/browser/): Debian's Chromium, headless, through puppeteer-core
# (an npm devDependency that never downloads a browser of its own).
#   install-browser.sh            installs the missing packages
#   install-browser.sh --missing  only prints the missing packages, one per line
# What it checks and installs: the rows of test/support/tools.tsv for `browser` (each checked by
# the very command or module the tests use). Running it again once all is present changes nothing.
set -euo pipefail

source "$(dirname "$0")/tools.sh"
mapfile -t missing < <(missing_packages browser)

source "$(dirname "$0")/apt.sh"
report_or_install install-browser "${1:-}" "${missing[@]}"
