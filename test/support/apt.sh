# Sourced by the install-*.sh scripts: one way to report or install missing Debian packages.

# apt_install PKG...: installs the packages (through sudo when not root), quietly.
apt_install() {
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# report_or_install NAME MODE PKG...: with MODE `--missing`, prints the packages one per line (for
# install-system-deps.sh, which installs everything at once); otherwise installs them.
report_or_install() {
  local name=$1 mode=$2
  shift 2
  if [ "$mode" = "--missing" ]; then
    for pkg in "$@"; do echo "$pkg"; done
    return 0
  fi
  if [ $# -eq 0 ]; then
    echo "$name: nothing to install" >&2
    return 0
  fi
  echo "$name: installing $*" >&2
  apt_install "$@"
}
