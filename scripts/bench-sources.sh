#!/usr/bin/env bash
# Many distinct sources: import, `stats` and `info` on a store whose samples come from SOURCES
# source names, against the same samples from three sources.
#
#   scripts/bench-sources.sh [cadence binary] [sources] [samples]
set -euo pipefail
CADENCE=${1:-.build-release/release/cadence}
SOURCES=${2:-60000}
SAMPLES=${3:-600000}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

csv() { # csv SOURCE-COUNT FILE
    awk -v sources="$1" -v n="$SAMPLES" 'BEGIN {
        print "type,sourceName,unit,startDate,endDate,value"
        for (i = 0; i < n; i++) {
            t = 1704067200 + i * 60
            printf "stepCount,Source %d,count,%s,%s,%d\n", i % sources, strftime("%Y-%m-%dT%H:%M:%SZ", t, 1),
                strftime("%Y-%m-%dT%H:%M:30Z", t, 1), i % 97 + 1
        }
    }' > "$2"
}
csv "$SOURCES" "$WORK/many.csv"
csv 3 "$WORK/few.csv"
for kind in few many; do
    /usr/bin/time -f "import $kind: %e s, %M KiB" "$CADENCE" import "$WORK/$kind.csv" --store "$WORK/$kind" > /dev/null
    ls -l "$WORK/$kind/MANIFEST" | awk -v k="$kind" '{ print "MANIFEST " k ": " $5 " B" }'
done
for run in 1 2 3; do
    for kind in few many; do
        /usr/bin/time -f "stats $kind run $run: %e s, %M KiB" "$CADENCE" stats --type stepCount --store "$WORK/$kind" --interval 1d --from 2024-01-01 --to 2025-03-01 > /dev/null
        /usr/bin/time -f "info $kind run $run: %e s, %M KiB" "$CADENCE" info --store "$WORK/$kind" > /dev/null
    done
done
