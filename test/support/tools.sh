# Sourced by the install-*.sh scripts: what is missing, read from the one table of the suite's
# tools (test/support/tools.tsv), checked by the very command or module the tests use.

TOOLS_TABLE="$(dirname "${BASH_SOURCE[0]}")/tools.tsv"

# tool_present KIND NAME: whether the command is executable (a `*` in its path: any version) or
# the module imports in Debian's Python.
tool_present() {
  local kind=$1 name=$2
  if [ "$kind" = module ]; then
    [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import $name" 2>/dev/null
    return
  fi
  local path
  for path in $name; do [ -x "$path" ] && return 0; done
  return 1
}

# missing_packages [SET-UP]: the apt packages of the table's rows for SET-UP (all rows without
# one) whose command or module is missing, one per line, each once.
missing_packages() {
  local setup=${1:-} kind name package apt setups
  while IFS=$'\t' read -r kind name package apt setups; do
    case "$kind" in '' | '#'*) continue ;; esac
    if [ -n "$setup" ] && [[ ",$setups," != *",$setup,"* ]]; then continue; fi
    tool_present "$kind" "$name" || echo "$apt"
  done <"$TOOLS_TABLE" | awk '!seen[$0]++'
}
