#!/usr/bin/env bash
# Installs exactly the locked dependencies. `npm ci` first; this machine's registry does not serve
# other platforms' optional binaries (darwin/win32 builds of @next/swc, @tailwindcss/oxide, ...),
# so a lock file written here cannot list them and npm ci refuses it (npm/cli#9846). Only in exactly
# that case: install from the same lock file with npm install, then prove every installed package
# has the locked version.
set -euo pipefail
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

if timeout 15m npm ci --no-audit --no-fund 2>&1 | tee "$log"; then
  exit 0
fi
echo
echo "npm ci refused the lock file; checking whether only optional platform packages are missing ..."
node scripts/ci/only-optional-missing.mjs "$log"
cp package-lock.json "$log.lock"
timeout 15m npm install --no-save --no-audit --no-fund
cmp -s package-lock.json "$log.lock" || { echo "npm install changed package-lock.json" >&2; rm -f "$log.lock"; exit 1; }
rm -f "$log.lock"
node scripts/ci/installed-match-lock.mjs
