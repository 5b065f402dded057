#!/usr/bin/env bash
# The cost gate: fails when a figure's instructions per sample (or per row) rise more than 10 %
# above the committed baseline, Benchmarks/gate/baseline.tsv.
#
#     Benchmarks/gate/run.sh              # check (CI runs this after scripts/test.sh)
#     Benchmarks/gate/run.sh --update     # measure and rewrite the baseline, on purpose
#
# Instruction counts, not times: each figure runs once under callgrind (valgrind --tool=callgrind),
# `cadence-bench --samples 200k --runs 1 --only FIGURE`, collecting only inside Stopwatch.time,
# the timed part (one warm-up and one run), on one core (taskset -c 0: the engine's serial paths)
# with SWIFT_DETERMINISTIC_HASHING=1. The count does not
# depend on the machine's load, so the gate does not flake on a shared machine; it does move with the
# compiler and the C library, so refresh the baseline (--update) in the commit that changes either,
# or that makes a figure slower on purpose, and say why.
#
# The per-sample figures cover the engine's kernels (ingest, a five-minute collection that decodes
# every block, a merged step-count collection); format.csv covers the output path per row.
# Installs valgrind when missing (apt-get, as .ci/run installs its packages) and builds
# cadence-bench in release mode with the flags scripts/test.sh uses for cadence, so the library
# built there is reused. About two minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/../.."

baseline=Benchmarks/gate/baseline.tsv
tolerance_percent=10
samples=200k
figures=(
    ingest.dense
    statisticsCollection.fiveMinute.heartRate
    statisticsCollection.daily.stepCount.merged
    format.csv.fiveMinute.heartRate
)

update=false
case "${1:-}" in
    --update) update=true ;;
    "") ;;
    *) echo "usage: $0 [--update]" >&2; exit 64 ;;
esac

if ! command -v valgrind >/dev/null; then
    apt-get update -qq && apt-get install -y -qq valgrind >/dev/null
fi
# CADENCE_GATE_SCRATCH: another build directory than .build (SwiftPM's --scratch-path).
build=(swift build -c release --static-swift-stdlib --scratch-path "${CADENCE_GATE_SCRATCH:-.build}")
"${build[@]}" --product cadence-bench
bench=$("${build[@]}" --show-bin-path)/cadence-bench

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Instructions per sample of one figure: callgrind's total over the timed part, divided by the
# figure's samples (from the JSON report) and by the two runs (warm-up and measured).
measure() {
    local figure=$1
    # On one core (taskset), so that the engine runs its serial paths: how work is split between
    # threads, and how long they wait for each other, would move the count from run to run.
    SWIFT_DETERMINISTIC_HASHING=1 taskset -c 0 valgrind --tool=callgrind --callgrind-out-file="$work/$figure.out" \
        --toggle-collect='*9StopwatchO4time*' \
        "$bench" --samples "$samples" --runs 1 --only "$figure" --directory "$work" --json "$work/$figure.json" \
        >/dev/null 2>"$work/$figure.log" || { cat "$work/$figure.log" >&2; return 1; }
    python3 - "$work/$figure.out" "$work/$figure.json" "$figure" <<'EOF'
import json, sys
out, report, figure = sys.argv[1:]
total = next(int(line.split()[1]) for line in open(out) if line.startswith("totals:"))
results = [r for r in json.load(open(report))["results"] if r["name"].startswith(figure + ".")]
if len(results) != 1 or not results[0]["samples"]:
    sys.exit(f"{figure}: expected one figure with samples in the report, found {len(results)}")
print(f"{total / 2 / results[0]['samples']:.1f}")
EOF
}

failed=0
declare -A measured
for figure in "${figures[@]}"; do
    measured[$figure]=$(measure "$figure")
done

if $update; then
    {
        echo "# figure	instructions per sample or row (Benchmarks/gate/run.sh --update, --samples $samples)"
        for figure in "${figures[@]}"; do printf '%s\t%s\n' "$figure" "${measured[$figure]}"; done
    } >"$baseline"
    echo "gate: wrote $baseline"
    cat "$baseline"
    exit 0
fi

for figure in "${figures[@]}"; do
    expected=$(awk -F'\t' -v f="$figure" '$1 == f { print $2 }' "$baseline")
    if [[ -z "$expected" ]]; then
        echo "gate: $figure has no baseline in $baseline (run $0 --update)" >&2
        failed=1
        continue
    fi
    verdict=$(python3 -c "
m, e, t = float('${measured[$figure]}'), float('$expected'), $tolerance_percent
print(f'{\"FAIL\" if m > e * (1 + t / 100) else \"ok\"} {(m / e - 1) * 100:+.1f} %')")
    printf 'gate: %-45s %12s instructions per sample, baseline %12s: %s\n' "$figure" "${measured[$figure]}" "$expected" "$verdict"
    [[ $verdict == FAIL* ]] && failed=1
done
if ((failed)); then
    echo "gate: a figure costs more than $tolerance_percent % over its baseline; if that is intended, run $0 --update and commit the baseline" >&2
    exit 1
fi
