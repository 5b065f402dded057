#!/usr/bin/env bash
#===----------------------------------------------------------------------===//
#
# This source file is part of the Cadence open source project.
# SPDX-License-Identifier: Apache-2.0
#
#===----------------------------------------------------------------------===//
#
# Fuzzes Cadence's decoders and importers with libFuzzer (see Fuzz/README.md).
#
#   Fuzz/run.sh [SECONDS] [TARGET...]   fuzz each target (chunk wal csv xml gpx arrow json) for SECONDS (default 120),
#                                       then minimize what it found into Fuzz/Corpus/TARGET
#   Fuzz/run.sh seed                    (re)write the seed inputs into Fuzz/Corpus
#   Fuzz/run.sh replay TARGET FILE...   run inputs through a target without sanitizers
#
# Environment: FUZZ_MERGE=0 keeps the corpus as it is; FUZZ_ARGS adds libFuzzer flags;
# APPLE_HEALTH_SAMPLES is the folder with the sample exports the seeds copy.
# Crashes, timeouts and out-of-memory inputs go to .build-fuzz/cadence-fuzz/crashes/TARGET/, logs to
# .build-fuzz/cadence-fuzz/logs/.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
scratch="$root/.build-fuzz"
# Not .build-fuzz/artifacts: SwiftPM owns (and empties) that one.
work="$scratch/cadence-fuzz"
corpus_root="$root/Fuzz/Corpus"
all_targets=(chunk wal csv xml gpx arrow json)

# The tool without sanitizers (seeding, replaying).
plain_tool() {
    swift build --package-path "$root" --scratch-path "$scratch" --product CadenceFuzz >&2
    echo "$scratch/debug/CadenceFuzz"
}

seed() {
    local tool
    tool=$(plain_tool)
    "$tool" seed "$corpus_root"
    # The two small Apple Health exports (attribution in Fuzz/Corpus/README.md).
    local data=${APPLE_HEALTH_SAMPLES:-$root/Tests/Fixtures/apple-health}
    [[ -d "$data" ]] || echo "no $data: skipping the Apple Health export seeds" >&2
    for name in dogsheep-export.xml alxdrcirilo-export.xml; do
        if [[ -f "$data/$name" ]]; then
            # Selector 0x00: default limits; 0x01: tight limits.
            { printf '\x00'; cat "$data/$name"; } > "$corpus_root/xml/seed-$name"
            { printf '\x01'; cat "$data/$name"; } > "$corpus_root/xml/seed-tight-$name"
        fi
    done
    if [[ -f "$data/dogsheep-export.xml" ]]; then
        # Selector 0x80: the rest is an export.zip.
        local temporary
        temporary=$(mktemp -d)
        mkdir -p "$temporary/apple_health_export"
        cp "$data/dogsheep-export.xml" "$temporary/apple_health_export/export.xml"
        (cd "$temporary" && zip -q -X -r export.zip apple_health_export)
        { printf '\x80'; cat "$temporary/export.zip"; } > "$corpus_root/xml/seed-export.zip"
        rm -rf "$temporary"
    fi
    if command -v zip >/dev/null; then
        # Selector 0x80 with a workout route: the small seed's export.xml (and the one with every
        # sample kind) and the GPX seed as the route file their <FileReference>s name.
        local routes
        for name in small kinds; do
            routes=$(mktemp -d)
            mkdir -p "$routes/apple_health_export/workout-routes"
            tail -c +2 "$corpus_root/xml/seed-$name" > "$routes/apple_health_export/export.xml"
            tail -c +2 "$corpus_root/gpx/seed-route" > "$routes/apple_health_export/workout-routes/route_2024-03-10_9.35am.gpx"
            (cd "$routes" && zip -q -X -r export.zip apple_health_export)
            local suffix=${name/small/route}
            { printf '\x80'; cat "$routes/export.zip"; } > "$corpus_root/xml/seed-export-$suffix.zip"
            # 0x81: the same under tight route limits.
            { printf '\x81'; cat "$routes/export.zip"; } > "$corpus_root/xml/seed-export-$suffix-tight.zip"
            rm -rf "$routes"
        done
    fi
    # Arrow: the streams and files pyarrow and Polars wrote (Tests/Fixtures/arrow), fed in pieces
    # of every size the selector picks.
    mkdir -p "$corpus_root/arrow"
    for fixture in "$root"/Tests/Fixtures/arrow/*.arrow*; do
        for selector in 00 20 e0; do
            { printf "\\x$selector"; cat "$fixture"; } > "$corpus_root/arrow/seed-$selector-$(basename "$fixture")"
        done
    done
    # CDA documents (test documents of ONC's C-CDA validator, Tests/Fixtures/documents) for the xml
    # target, read as a CDA document and imported as a standalone file; FHIR resources for the json
    # target.
    for fixture in "$root"/Tests/Fixtures/documents/cda/*.xml "$root"/Tests/Fixtures/documents/refused/*.xml; do
        { printf '\x00'; cat "$fixture"; } > "$corpus_root/xml/seed-cda-$(basename "$fixture")"
    done
    mkdir -p "$corpus_root/json"
    for fixture in "$root"/Tests/Fixtures/documents/fhir/*.json; do
        for selector in 00 01; do
            { printf "\\x$selector"; cat "$fixture"; } > "$corpus_root/json/seed-$selector-$(basename "$fixture")"
        done
    done
    for target in "${all_targets[@]}"; do echo "$target: $(find "$corpus_root/$target" -type f | wc -l) files"; done
}

max_len() {
    case "$1" in
        chunk) echo 4096 ;;
        wal) echo 4096 ;;
        csv) echo 4096 ;;
        xml) echo 8192 ;;
        gpx) echo 8192 ;;
        arrow) echo 16384 ;;
        json) echo 8192 ;;
    esac
}

case "${1:-}" in
    seed) seed; exit 0 ;;
    replay) shift; tool=$(plain_tool); exec "$tool" replay "$@" ;;
esac

seconds=${1:-120}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")

echo "== building the fuzzer (release, -sanitize=fuzzer,address)"
swift build --package-path "$root" -c release --product CadenceFuzz --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DCADENCE_FUZZING \
    -Xlinker --undefined=LLVMFuzzerRunDriver -Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver
fuzzer="$scratch/release/CadenceFuzz"

# The Swift runtime's backtracer would catch the signals ASan and libFuzzer report crashes with.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}
summary=()
for target in "${targets[@]}"; do
    corpus="$corpus_root/$target"
    found="$work/found/$target"
    artifacts="$work/crashes/$target"
    log="$work/logs/$target.log"
    mkdir -p "$corpus" "$found" "$artifacts" "$(dirname "$log")"
    crashes_before=$(find "$artifacts" -type f | wc -l || true)
    echo "== fuzzing $target for ${seconds}s (log: $log)"
    status=0
    started=$SECONDS
    # One process, one worker: the machine is shared. New inputs go to $found, not the committed corpus.
    CADENCE_FUZZ_TARGET=$target "$fuzzer" "$found" "$corpus" \
        -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 \
        -artifact_prefix="$artifacts/" -print_final_stats=1 ${FUZZ_ARGS:-} >"$log" 2>&1 || status=$?
    # libFuzzer prints final stats on a normal end; after a crash, its last progress line.
    executions=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || true)
    [[ -n "$executions" ]] || executions=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#' || true)
    elapsed=$((SECONDS - started))
    new_units=$(find "$found" -type f | wc -l || true)
    crashes=$(( $(find "$artifacts" -type f | wc -l || true) - crashes_before ))
    if [[ $status -ne 0 ]]; then
        grep -E 'ERROR: libFuzzer|Fatal error|cadence-fuzz:|ERROR: AddressSanitizer|SUMMARY' "$log" | head -5 || true
        grep -o 'Test unit written to .*' "$log" || true
        echo "   reproduce: Fuzz/run.sh replay $target $artifacts/<file>"
    fi
    if [[ "${FUZZ_MERGE:-1}" != 0 ]]; then
        # Minimize: keep a small set of inputs with the same edge coverage (hit counts ignored, to
        # keep the committed corpus small), in a fresh directory that replaces the corpus
        # (-set_cover_merge is -merge=1 with a smaller result).
        fresh="$work/merged/$target"
        rm -rf "$fresh" && mkdir -p "$fresh"
        CADENCE_FUZZ_TARGET=$target "$fuzzer" -set_cover_merge=1 -use_counters=0 -max_len="$(max_len "$target")" -timeout=10 \
            -rss_limit_mb=2048 -malloc_limit_mb=512 "$fresh" "$corpus" "$found" >"$work/logs/$target-merge.log" 2>&1
        rm -rf "$corpus" && mv "$fresh" "$corpus"
        rm -rf "$found"
    fi
    size=$(find "$corpus" -type f -exec cat {} + | wc -c)
    files=$(find "$corpus" -type f | wc -l)
    line="$target: executions ${executions:-?}, time ${elapsed:-?}s, new inputs ${new_units:-?}, crashes $crashes (exit $status), corpus $files files $size bytes"
    echo "$line"
    summary+=("$line")
done
echo "== summary"
printf '%s\n' "${summary[@]}"
