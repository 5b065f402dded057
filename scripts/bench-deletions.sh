#!/usr/bin/env bash
# The first save after many retained deletions, against the same save with none.
#
#   scripts/bench-deletions.sh [cadence binary] [deleted samples]
#
# Builds two stores from the same CSV of step counts (one a minute): one in which the first
# DELETED steps are then deleted (their records retained), one without deletions. Then times,
# on a fresh copy of each, the first save of another type (a heart-rate import) and the
# re-import of the steps (which consults their deletions), printing wall seconds and peak KiB.
set -euo pipefail
CADENCE=${1:-.build-release/release/cadence}
DELETED=${2:-270000}
TOTAL=$((DELETED + 30000))
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

csv() { # csv TYPE UNIT COUNT FILE
    awk -v type="$1" -v unit="$2" -v n="$3" 'BEGIN {
        print "type,sourceName,unit,startDate,endDate,value"
        for (i = 0; i < n; i++) {
            t = 1704067200 + i * 60
            printf "%s,Phone,%s,%s,%s,%d\n", type, unit, strftime("%Y-%m-%dT%H:%M:%SZ", t, 1),
                strftime("%Y-%m-%dT%H:%M:30Z", t, 1), i % 97 + 1
        }
    }' > "$4"
}
csv stepCount count "$TOTAL" "$WORK/steps.csv"
csv heartRate count/min 30000 "$WORK/heart.csv"
CUT=$(date -u -d "@$((1704067200 + DELETED * 60))" +%Y-%m-%dT%H:%M:%SZ)

"$CADENCE" import "$WORK/steps.csv" --store "$WORK/none" > /dev/null
cp -r "$WORK/none" "$WORK/deleted"
"$CADENCE" delete --store "$WORK/deleted" --type stepCount --to "$CUT" > /dev/null
"$CADENCE" info --store "$WORK/deleted" | grep -i delet || true

measure() { # measure LABEL STORE FILE
    for run in 1 2 3; do
        rm -rf "$WORK/run" && cp -r "$2" "$WORK/run"
        /usr/bin/time -f "$1 run $run: %e s, %M KiB" "$CADENCE" import "$3" --store "$WORK/run" > /dev/null
    done
}
measure "heart rate, no deletions " "$WORK/none" "$WORK/heart.csv"
measure "heart rate, $DELETED deleted" "$WORK/deleted" "$WORK/heart.csv"
measure "steps again, no deletions " "$WORK/none" "$WORK/steps.csv"
measure "steps again, $DELETED deleted" "$WORK/deleted" "$WORK/steps.csv"
