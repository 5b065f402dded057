#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Checks that one `cadence import` stays under the memory budget README.md states, whatever its
# input: writes hostile-but-valid inputs (hostile.py), imports each into a new store under
# GNU time, and prints each import's peak resident memory against the budget. Exits 1 when one
# is over it.
#
#   Benchmarks/memory/run.sh [CADENCE] [BUDGET_MIB]
#
# CADENCE defaults to the release build (.build-release/release/cadence, then
# .build/release/cadence); BUDGET_MIB to 512. MEMORY_WORK names the folder the inputs and stores
# go in (default: a new temporary folder, removed at the end).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cadence=${1:-}
if [ -z "$cadence" ]; then
    for candidate in "$root/.build-release/release/cadence" "$root/.build/release/cadence"; do
        if [ -x "$candidate" ]; then cadence=$candidate; break; fi
    done
fi
[ -n "$cadence" ] && [ -x "$cadence" ] || { echo "no cadence binary: build one with swift build -c release" >&2; exit 2; }
budget=${2:-512}
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed" >&2; exit 2; }
work=${MEMORY_WORK:-$(mktemp -d)}
[ -n "${MEMORY_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
# A MEMORY_WORK kept from an earlier run must not mix its peaks into this one's checks.
rm -f "$work/peaks" "$work/over" "$work/growing"

# kind file count: what each input holds (hostile.py says more). A kind listed at two counts must
# peak flat: the larger at most 1.25 times the smaller.
inputs="route export.zip 131072
sources sources.csv 1000000
types types.csv 100000
xml-types types.xml 100000
devices devices.csv 300000
values values.csv 1500
keys keys.csv 200000
reversed reversed.csv 1000000
reversed reversed.csv 4000000
xml-metadata metadata.xml 128
correlations correlations.xml 200000
correlations correlations.xml 800000
summaries summaries.xml 100000
summaries summaries.xml 400000
clinical clinical.zip 5000"

printf '%-21s %10s %10s %8s %6s  %s\n' input size "peak MiB" seconds status outcome
echo "$inputs" | while read -r kind file count; do
    mkdir -p "$work/$kind"
    python3 "$here/hostile.py" "$kind" "$work/$kind/$file" --count "$count"
    rm -rf "$work/$kind/store"
    status=0
    /usr/bin/time -f '%M %e' -o "$work/$kind/time" "$cadence" import "$work/$kind/$file" --store "$work/$kind/store" \
        --format json > "$work/$kind/out.json" 2> "$work/$kind/err" || status=$?
    read -r kib seconds <<TIME
$(tail -n 1 "$work/$kind/time")
TIME
    mib=$((kib / 1024))
    size=$(du -h "$work/$kind/$file" | cut -f1)
    outcome=$(python3 - "$work/$kind/out.json" "$work/$kind/err" <<'PY'
import json, sys
try:
    summary = json.load(open(sys.argv[1]))["files"][0]
    stop = summary.get("stoppedAt")
    counts = ["%s %d" % (key, summary[key]) for key in ("imported", "workouts", "correlations", "activitySummaries",
                                                         "clinicalRecords", "rejected") if summary.get(key)]
    text = ", ".join(counts) or "nothing imported"
    print(text + ("; stopped at line %d: %s" % (stop["line"], stop["reason"][:48]) if stop else ""))
except Exception:
    print(open(sys.argv[2]).read().strip().splitlines()[-1][:90] if open(sys.argv[2]).read().strip() else "-")
PY
)
    printf '%-21s %10s %10d %8s %6s  %s\n' "$kind $count" "$size" "$mib" "$seconds" "$status" "$outcome"
    if [ "$mib" -ge "$budget" ]; then echo "over" >> "$work/over"; fi
    echo "$kind $mib" >> "$work/peaks"
    rm -rf "$work/$kind"
done
# A kind measured twice grows with its input when the second peak is over 1.25 times the first.
awk '{ if ($1 in first) { if ($2 * 4 > first[$1] * 5) print $1 } else first[$1] = $2 }' "$work/peaks" > "$work/growing"
failed=0
if [ -s "$work/growing" ]; then
    echo "FAIL: peak memory grows with the input: $(tr '\n' ' ' < "$work/growing")"
    failed=1
fi
if [ -e "$work/over" ]; then
    echo "FAIL: $(wc -l < "$work/over") import(s) peaked at or over the budget of $budget MiB"
    failed=1
fi
[ "$failed" = 0 ] || exit 1
echo "ok: every import peaked under the budget of $budget MiB, and flat where measured twice"
