#!/usr/bin/env bash
# Set up a bare machine (scripts/bootstrap.sh --spark) and run the whole test suite: the check that
# the source folders depend only on the layers below them (scripts/check-layers.py), the Swift
# tests, then the Spark integration's tests (PySpark in local mode) against a release cadence.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --spark
python3 scripts/check-layers.py
swift build --build-tests
swift test --skip-build --parallel
swift build -c release --static-swift-stdlib --product cadence
python=$(scripts/bootstrap-spark.sh)
(cd Integrations/spark && CADENCE_BINARY="$PWD/../../.build/release/cadence" "../../$python" -m pytest -q tests)
