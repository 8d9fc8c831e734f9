#!/usr/bin/env bash
# The Scratch web client the browser tests run (test/browser/scratch-gui.test.ts): scratch-gui
# 5.3.0's library build (`dist/scratch-gui.js`, React and ReactDOM left to the page), from the npm
# registry's tarball. Not a devDependency: its dependencies (webpack, loaders, scratch-blocks,
# scratch-paint... hundreds of packages) are built into that one file already, so only the file is
# needed. The tarball must have the integrity the registry published for 5.3.0 (pinned below), or
# nothing is installed. Its peers (react, react-dom 16) and the fetch worker of its scratch-storage
# (4.1.27) are devDependencies.
#   install-scratch-gui.sh   installs it into test/.cache/scratch-gui-5.3.0/ unless it is there
# Running it again once it is there changes nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."

VERSION=5.3.0
INTEGRITY='sha512-YiuHUOZAXLkcJYPG1kl9MuPVeSlZaA1AMXdV9cfWxPQIg/hyzsysKNJNWsLV6yMUGjhGXRBaLrX77o69o+Zndw=='
DIR="test/.cache/scratch-gui-$VERSION"

# The marker holds the integrity of what was unpacked: a partial unpack has none.
if [ "$(cat "$DIR/INTEGRITY" 2>/dev/null)" = "$INTEGRITY" ]; then exit 0; fi

echo "› fetching scratch-gui@$VERSION from the npm registry"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
npm pack "scratch-gui@$VERSION" --pack-destination "$work" --silent >/dev/null
tarball="$work/scratch-gui-$VERSION.tgz"
actual="sha512-$(node -e "process.stdout.write(require('node:crypto').createHash('sha512').update(require('node:fs').readFileSync(process.argv[1])).digest('base64'))" "$tarball")"
if [ "$actual" != "$INTEGRITY" ]; then
  echo "install-scratch-gui: scratch-gui-$VERSION.tgz has integrity $actual, the registry published $INTEGRITY" >&2
  exit 1
fi
rm -rf "$DIR"
mkdir -p "$DIR"
tar -xzf "$tarball" -C "$DIR" --strip-components=1 package/dist/scratch-gui.js package/LICENSE package/package.json
printf '%s' "$INTEGRITY" >"$DIR/INTEGRITY"
