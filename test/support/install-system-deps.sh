#!/usr/bin/env bash
# Installs the Debian packages the suite talks to, only when they are missing: every row of the
# table of the suite's tools (test/support/tools.tsv: database servers, Jupyter, Chromium, tmux...),
# each checked by the very command or module the tests use. Fails when one is still missing after.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/support/tools.sh
mapfile -t need < <(missing_packages)
if [ "${#need[@]}" -gt 0 ]; then
  echo "› installing Debian packages: ${need[*]}"
  source test/support/apt.sh
  apt_install "${need[@]}"
  mapfile -t still < <(missing_packages)
  if [ "${#still[@]}" -gt 0 ]; then
    echo "install-system-deps: still missing after apt-get install: ${still[*]}" >&2
    exit 1
  fi
fi
