#!/usr/bin/env bash
# The main job, on a bare machine: install what is missing, build cadence, then either
#   - with no argument: generate a realistic year of Apple Health-like data (Watch heart rate,
#     overlapping iPhone and Watch steps, energy, body mass), import it, or
#   - with a path to an Apple Health export.zip/export.xml (or a CSV): import that,
# and print a daily step table (source-merged totals, as the Health app shows them) for the last
# 31 days of data.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build -c release --static-swift-stdlib --product cadence >&2
cadence=".build/release/cadence"
work="${CADENCE_DEMO_DIR:-data/demo}"
store="$work/store.cadence"
rm -rf "$store"
mkdir -p "$work"
if [ $# -ge 1 ]; then
    input="$1"
else
    input="$work/realistic-year.csv"
    "$cadence" generate --profile realistic --days 366 --seed 42 --format csv --output "$input"
fi
"$cadence" import "$input" --store "$store"
"$cadence" info --store "$store"
# The last day with steps, from the most recent step sample.
last=$("$cadence" samples --store "$store" --type stepCount --sort -startDate --limit 1 --format json \
    | grep -o '"startDate" *: *"[^"]*"' | head -n 1 | sed 's/.*: *"\(.*\)"/\1/')
if [ -z "$last" ]; then
    echo "The data has no step samples to tabulate." >&2
    exit 0
fi
zone="${CADENCE_TIME_ZONE:-UTC}"
to=$(TZ="$zone" date -d "$last + 1 day" +%Y-%m-%dT00:00:00%:z)
from=$(TZ="$zone" date -d "$last - 30 days" +%Y-%m-%dT00:00:00%:z)
"$cadence" stats --store "$store" --type stepCount --from "$from" --to "$to" --interval 1d \
    --time-zone "$zone" --options sum,duration
