#!/usr/bin/env bash
# The Scratch web client the browser tests run (test/browser/scratch-gui.test.ts): scratch-gui
# 5.3.0's library build (`dist/scratch-gui.js`, React and ReactDOM left to the page), from the npm
# registry's tarball. Not a devDependency: its dependencies (webpack, loaders, scratch-blocks,
# scratch-paint... hundreds of packages) are built into that one file already, so only the file is
# needed. The tarball must have the integrity the registry published for 5.3.0 (pinned below), or
# nothing is installed. Its peers (react, react-dom 16) and the fetch worker of its scratch-storage
# (4.1.27) are devDependencies.
#   install-scratch-gui.sh   installs it into test/.cache/scratch-gui-5.3.0/ unless it is there
# Running it again once it is there changes nothing; two runs at once (two suites) install it once.
set -euo pipefail
cd "$(dirname "$0")/../.."

VERSION=5.3.0
INTEGRITY='sha512-YiuHUOZAXLkcJYPG1kl9MuPVeSlZaA1AMXdV9cfWxPQIg/hyzsysKNJNWsLV6yMUGjhGXRBaLrX77o69o+Zndw=='
CACHE=test/.cache
DIR="$CACHE/scratch-gui-$VERSION"

sha512() {
  node -e "process.stdout.write('sha512-'+require('node:crypto').createHash('sha512').update(require('node:fs').readFileSync(process.argv[1])).digest('base64'))" "$1"
}
# The marker holds the tarball's integrity and the unpacked file's hash: a file cut short or
# changed since no longer matches it, and is fetched again.
installed() {
  [ -f "$DIR/dist/scratch-gui.js" ] &&
    [ "$(cat "$DIR/INTEGRITY" 2>/dev/null)" = "$INTEGRITY $(sha512 "$DIR/dist/scratch-gui.js")" ]
}

mkdir -p "$CACHE"
# One install at a time: a second suite waits for the first one's, then finds it there.
exec 9>"$CACHE/scratch-gui-$VERSION.lock"
if ! flock -w 600 9; then
  echo "install-scratch-gui: another install of scratch-gui@$VERSION held $CACHE for 10 minutes" >&2
  exit 1
fi
if installed; then exit 0; fi

echo "› fetching scratch-gui@$VERSION from the npm registry"
work="$(mktemp -d)"
stage="$(mktemp -d "$CACHE/.scratch-gui-$VERSION.XXXXXX")"
trap 'rm -rf "$work" "$stage"' EXIT
if ! npm pack "scratch-gui@$VERSION" --pack-destination "$work" --loglevel=error >/dev/null; then
  echo "install-scratch-gui: could not fetch scratch-gui@$VERSION from the npm registry (npm's error above);" \
    "the browser tests need it" >&2
  exit 1
fi
tarball="$work/scratch-gui-$VERSION.tgz"
actual="$(sha512 "$tarball")"
if [ "$actual" != "$INTEGRITY" ]; then
  echo "install-scratch-gui: scratch-gui-$VERSION.tgz has integrity $actual, the registry published $INTEGRITY" >&2
  exit 1
fi
# Unpacked beside the cache and renamed into place whole: a run killed part-way leaves no $DIR.
tar -xzf "$tarball" -C "$stage" --strip-components=1 package/dist/scratch-gui.js package/LICENSE package/package.json
printf '%s' "$INTEGRITY $(sha512 "$stage/dist/scratch-gui.js")" >"$stage/INTEGRITY"
chmod 755 "$stage"
rm -rf "$DIR"
mv "$stage" "$DIR"
