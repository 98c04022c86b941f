#!/usr/bin/env bash
# run.sh - runs every libFuzzer target of a clang fuzz build for a bounded
# time, two at a time, each on a scratch copy of its seed corpus
# (corpus/<target>/ stays as committed), with leak detection and UBSan
# halting. A crash, leak, sanitizer report or slow input (-timeout) fails
# the target; its reproducer is copied to BUILD/fuzz-artifacts/.
# Usage: bash test/fuzz/run.sh BUILD [SECONDS_PER_TARGET (default 30)]
# Prints one line per target (executions, executions/s) and ends with
# "fuzz: N passed, N failed"; exit status 0 when none failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: run.sh BUILD [SECONDS]}" && pwd)
secs=${2:-30}
jobs=2 # the CI machine's cores
# Leaks reported at the input that made them. No 0xbe fill of each new
# block and a small quarantine: OpenSSL's decoder chain allocates page-sized
# buffers per input, and filling them and faulting fresh pages in would take
# most of the time (use-after-free is still caught within the quarantine).
asan=${FUZZ_ASAN_OPTIONS:-detect_leaks=1:max_malloc_fill_size=0:quarantine_size_mb=16}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run_one() { # TARGET: fuzz it, leave "passed|failed EXECS EXECS/S" in $work/TARGET.result
    local t=$1 exe=$build/test/fuzz/fuzz_$1 log=$work/$1.log rc
    mkdir -p "$work/$t.corpus" "$work/$t.artifacts"
    cp "$here/corpus/$t/"* "$work/$t.corpus/"
    # the CPU time too: on a shared machine, executions per wall second
    # say more about the neighbours than about the target
    local TIMEFORMAT='%U %S'
    { time ASAN_OPTIONS=$asan UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        FASTSIG_MODULE_DIR=$build \
        "$exe" -max_total_time="$secs" -timeout=20 -detect_leaks=1 -print_final_stats=1 \
        -artifact_prefix="$work/$t.artifacts/" "$work/$t.corpus" >"$log" 2>&1; } 2>"$work/$t.time"
    rc=$?
    local execs rate cpu
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$work/$t.time")
    if [ "$rc" -eq 0 ] && [ -n "$execs" ]; then
        echo "passed ${execs} ${rate} ${cpu}" >"$work/$t.result"
    else
        echo "failed ${execs:-0} ${rate:-0} ${cpu}" >"$work/$t.result"
        mkdir -p "$build/fuzz-artifacts"
        cp "$log" "$build/fuzz-artifacts/$t.log"
        cp "$work/$t.artifacts/"* "$build/fuzz-artifacts/" 2>/dev/null
    fi
}

targets=()
for d in "$here"/corpus/*/; do
    targets+=("$(basename "$d")")
done
for t in "${targets[@]}"; do
    run_one "$t" &
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n
    done
done
wait

pass=0
fail=0
for t in "${targets[@]}"; do
    read -r res execs rate cpu <"$work/$t.result"
    printf '  fuzz_%-12s %-6s %9s execs in %s s: %6s execs/s; %6s s CPU, %6s execs per CPU s\n' \
        "$t" "$res" "$execs" "$secs" "$rate" "$cpu" \
        "$(awk -v e="$execs" -v c="$cpu" 'BEGIN { printf "%.0f", (c > 0 ? e / c : 0) }')"
    if [ "$res" = passed ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "  fuzz_$t: see $build/fuzz-artifacts/$t.log" \
             "(reproduce: $build/test/fuzz/fuzz_$t FILE)" >&2
        tail -n 30 "$build/fuzz-artifacts/$t.log" >&2
    fi
done
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
