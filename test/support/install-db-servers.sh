#!/usr/bin/env bash
# The database servers the SQL tests start (test/support/db-servers.ts), from Debian's packages.
#   install-db-servers.sh            installs postgresql / mariadb-server if their binaries are missing
#   install-db-servers.sh --missing  only prints the missing packages, one per line
# What it checks and installs: the rows of test/support/tools.tsv for `db-servers` (each checked by
# the very command or module the tests use). Running it again once all is present changes nothing.
set -euo pipefail

source "$(dirname "$0")/tools.sh"
mapfile -t missing < <(missing_packages db-servers)

source "$(dirname "$0")/apt.sh"
report_or_install install-db-servers "${1:-}" "${missing[@]}"
