#!/usr/bin/env bash
# The database servers the SQL tests start (test/support/db-servers.ts), from Debian's packages.
#   install-db-servers.sh            installs postgresql / mariadb-server if their binaries are missing
#   install-db-servers.sh --missing  only prints the missing packages, one per line (for
#                                    test/support/install-system-deps.sh, which installs them)
# Running it again once both are present changes nothing.
set -euo pipefail

missing=()
# PostgreSQL: Debian puts the server under /usr/lib/postgresql/<version>/bin.
if ! compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null && ! command -v postgres >/dev/null; then
  missing+=(postgresql)
fi
if ! command -v mariadbd >/dev/null && [ ! -x /usr/sbin/mariadbd ]; then
  missing+=(mariadb-server)
fi

source "$(dirname "$0")/apt.sh"
report_or_install install-db-servers "${1:-}" "${missing[@]}"
