#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what it needs, builds, runs vitest,
# and ends with one plain summary line ("N passed, N failed, N skipped").
set -euo pipefail
cd "$(dirname "$0")/.."
# A missing system tool fails the suite, whoever runs it (test/support/tools.ts): never a skip.
export SCRATCHLAB_REQUIRE_TOOLS=1

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "› installing npm packages"
  # `npm ci`: exactly the locked tree. The lock file must list every platform's optional packages;
  # after adding a dependency, run `npm install --package-lock-only` once so that it does.
  npm ci --no-audit --no-fund
fi
bash test/support/install-system-deps.sh
bash test/support/install-scratch-gui.sh
echo "› building"
npm run --silent build
echo "› lint and types"
npx biome check . >/dev/null || npx biome check .
npx tsc -p test/tsconfig.json --noEmit
echo "› the package as users get it"
node test/package/check.mjs

mkdir -p test/.tmp
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=test/.tmp/results.json "$@" || status=$?
node test/support/summary.mjs test/.tmp/results.json || status=1
exit "$status"
