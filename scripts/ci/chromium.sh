#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (browsers cannot be downloaded here).
set -euo pipefail
if [[ ! -x /usr/bin/chromium ]]; then
  echo "installing Debian's chromium"
  apt-get update
  apt-get install -y chromium
fi
/usr/bin/chromium --version || true
