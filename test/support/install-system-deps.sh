#!/usr/bin/env bash
# Installs the Debian packages the suite talks to, only when they are missing:
# database servers (PostgreSQL, MariaDB), Jupyter (nbconvert) and Chromium.
set -euo pipefail
need=()
for script in test/support/install-*.sh; do
  [ "$script" = "test/support/install-system-deps.sh" ] && continue
  # Each install-*.sh prints the apt packages it needs that are missing.
  while read -r pkg; do [ -n "$pkg" ] && need+=("$pkg"); done < <(bash "$script" --missing)
done
if [ "${#need[@]}" -gt 0 ]; then
  echo "› installing Debian packages: ${need[*]}"
  source test/support/apt.sh
  apt_install "${need[@]}"
fi
