#!/usr/bin/env bash
# What the kernel tests drive (test/kernel/): Debian's Jupyter (nbconvert executes and exports the
# notebooks; no IPython needed, the kernelspecs are written by `scratchlab kernel install`), the
# classic Notebook (a real front end, opened in Chromium: `python3-notebook` is the library,
# `jupyter-notebook` the command the test starts), Jupyter's conformance suite
# (jupyter_kernel_test), Chromium (the
# screenshot of the exported HTML, and the Notebook's page), and the terminal front end
# (`jupyter-console`, driven in `tmux`).
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
if [ ! -x /usr/bin/jupyter-notebook ]; then missing+=(jupyter-notebook); fi
if ! /usr/bin/python3 -c 'import jupyter_kernel_test' 2>/dev/null; then missing+=(python3-jupyter-kernel-test); fi
if [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
if [ ! -x /usr/bin/jupyter-console ]; then missing+=(jupyter-console); fi
if [ ! -x /usr/bin/tmux ]; then missing+=(tmux); fi

source "$(dirname "$0")/apt.sh"
report_or_install install-jupyter "${1:-}" "${missing[@]}"
