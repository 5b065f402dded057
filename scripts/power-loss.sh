#!/usr/bin/env bash
# The long power-loss run: COUNT (default 1000) random workloads of saves, deletes, flushes,
# compactions, reopenings and repairs, each losing power at a random file-system call and checked
# on three disk images the crash may leave (Tests/CadenceTests/PowerLossTests.swift). The test
# suite runs a smaller, fixed set of the same.
#
#     scripts/power-loss.sh 5000
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-1000}"
swift build --build-tests
CADENCE_POWER_LOSS_COUNT="$count" swift test --skip-build --filter 'PowerLossTests/randomPowerLosses' 2>&1 \
    | grep -E 'power-loss:|✘|passed|failed'
