#!/usr/bin/env bash
# What the kernel tests drive (test/kernel/): Debian's Jupyter (nbconvert executes and exports the
# notebooks; no IPython needed, the kernelspecs are written by `scratchlab kernel install`) and
# Chromium (the screenshot of the exported HTML).
#   install-jupyter.sh            installs the missing packages
#   install-jupyter.sh --missing  only prints the missing packages, one per line (for
#                                 test/support/install-system-deps.sh, which installs them)
# Running it again once everything is present changes nothing.
set -euo pipefail

missing=()
# Debian's Jupyter runs on /usr/bin/python3 (`python3` on PATH may be another build without it).
if [ ! -x /usr/bin/jupyter-nbconvert ]; then missing+=(jupyter-nbconvert); fi
if ! /usr/bin/python3 -c 'import jupyter_client' 2>/dev/null; then missing+=(jupyter-client); fi
if ! /usr/bin/python3 -c 'import nbclient' 2>/dev/null; then missing+=(python3-nbclient); fi
if [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi

if [ "${1:-}" = "--missing" ]; then
  for pkg in "${missing[@]}"; do echo "$pkg"; done
  exit 0
fi
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-jupyter: jupyter-nbconvert, jupyter-client, python3-nbclient and chromium are already installed" >&2
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
echo "install-jupyter: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
