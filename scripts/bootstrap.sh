#!/usr/bin/env bash
# Installs what a bare Debian/Ubuntu machine lacks to build Cadence: the system liblz4 headers
# (CLZ4), pkg-config (SwiftPM finds liblz4 through it) and zlib (ZIPFoundation reads export.zip).
# With --spark, also what the Spark integration's tests need (scripts/bootstrap-spark.sh).
set -euo pipefail
missing=()
for package in liblz4-dev pkg-config zlib1g-dev; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
command -v swift >/dev/null || { echo "swift is not on PATH: install Swift 6 first" >&2; exit 1; }
if [ "${1:-}" = "--spark" ]; then
    "$(dirname "$0")/bootstrap-spark.sh" >/dev/null
fi
