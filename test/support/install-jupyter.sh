#!/usr/bin/env bash
# What the kernel tests drive (test/kernel/): Debian's Jupyter (nbconvert executes and exports the
# notebooks; no IPython needed, the kernelspecs are written by `scratchlab kernel install`), the
# classic Notebook (a real front end, opened in Chromium: `python3-notebook` is the library,
# `jupyter-notebook` the command the test starts), Jupyter's conformance suite
# (jupyter_kernel_test), Chromium (the
# screenshot of the exported HTML, and the Notebook's page), and the terminal front end
# (`jupyter-console`, driven in `tmux`).
#   install-jupyter.sh            installs the missing packages
#   install-jupyter.sh --missing  only prints the missing packages, one per line
# What it checks and installs: the rows of test/support/tools.tsv for `jupyter` (each checked by
# the very command or module the tests use). Running it again once all is present changes nothing.
set -euo pipefail

source "$(dirname "$0")/tools.sh"
mapfile -t missing < <(missing_packages jupyter)

source "$(dirname "$0")/apt.sh"
report_or_install install-jupyter "${1:-}" "${missing[@]}"
