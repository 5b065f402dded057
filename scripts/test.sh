#!/usr/bin/env bash
# Set up a bare machine (scripts/bootstrap.sh) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build --parallel
