#!/usr/bin/env bash
# Installs what the Spark integration's tests (Integrations/spark) need on a bare Debian/Ubuntu
# machine, each only when missing: Java 17 (Debian's openjdk-17-jre-headless; pyspark 4 needs it),
# Python 3 with venv, and a virtual environment in .build/spark-venv holding the pinned pyspark,
# pyarrow, pandas and pytest of Integrations/spark/requirements.txt. Prints the environment's python
# on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
updated=""
install() {
    if [ -z "$updated" ]; then $SUDO apt-get update -qq >&2; updated=1; fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >&2
}
java_major() { java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1; }
if ! command -v java >/dev/null || [ "$(java_major)" -lt 17 ]; then
    install openjdk-17-jre-headless
fi
command -v python3 >/dev/null || install python3
venv=".build/spark-venv"
requirements="Integrations/spark/requirements.txt"
# Rebuilt when the pins change, reused otherwise.
if ! cmp -s "$requirements" "$venv/requirements.txt" 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv" >&2 2>/dev/null || { rm -rf "$venv"; install python3-venv; python3 -m venv "$venv" >&2; }
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements" >&2
    cp "$requirements" "$venv/requirements.txt"
fi
echo "$venv/bin/python"
