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
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
