#!/usr/bin/env bash
# test.sh - install what is missing, build, and run every test suite:
#   1. the release build: unit, evp and cli suites (meson test)
#   2. the unit suite again once per forced CPU path (FASTSIG_CPU, crypto/cpu.h)
#   3. an ASan+UBSan build: the unit and evp suites again; then the constant-time check
#      (suite ct: signing under valgrind memcheck, test/ct)
#   4. a clang build of the libFuzzer targets (test/fuzz): each runs for a bounded time
#      (FASTSIG_FUZZ_SECONDS, default 30; 600 under FASTSIG_SOAK) and counts as one test
#   5. the Debian packages (scripts/package.sh): build, lint, install, the CLI flows against the
#      installed module, purge; counted with OpenSSL 3.0 (the system's), and on a line of its own
#   6. a release build against OpenSSL 3.5 (scripts/openssl35.sh builds it from Debian's source
#      package into a cache on first use): the unit, evp and cli suites with that openssl
# Ends with one line per OpenSSL version, then the summary line "fastsig: N passed, N failed".
# FASTSIG_SOAK=1 adds the long soak tests (see README), with meson's per-test timeouts x20.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
# the Java peer of test/cli/bc_cms.sh: Bouncy Castle 1.72 (Debian's jars) and a JDK to compile it
fs_install_missing make perl valgrind default-jdk-headless libbcprov-java libbcpkix-java mandoc

pass=0
fail=0
# the soak's full-height runs take far longer than the timeouts meant for the default run
soak=0
case ${FASTSIG_SOAK:-} in '' | 0*) ;; *) soak=1 ;; esac
soak_args=()
[ "$soak" = 1 ] && soak_args=(--timeout-multiplier 20)
# count_log DIR: add meson's results of the last run in DIR to pass/fail
count_log() {
    local counts
    counts=$(python3 - "$1/meson-logs/testlog.json" <<'PY'
import json, sys
ok = bad = 0
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    if r in ("OK", "EXPECTEDFAIL", "SKIP"):
        ok += 1
    else:
        bad += 1
print(ok, bad)
PY
)
    pass=$((pass + ${counts% *}))
    fail=$((fail + ${counts#* }))
}

run_suites() { # DIR LABEL [meson test args]
    local dir=$1 label=$2
    shift 2
    echo "== $label"
    meson test -C "$dir" --print-errorlogs "${soak_args[@]}" "$@" || true
    count_log "$dir"
}

echo "== build (release)"
fs_build "$BUILD"
run_suites "$BUILD" "tests (release build)" --no-suite ct
for cpu in portable shani avx2 avx512 avx512,ifma; do
    FASTSIG_CPU=$cpu run_suites "$BUILD" "unit tests (FASTSIG_CPU=$cpu)" --suite unit
done

echo "== build (ASan+UBSan)"
fs_build "$ROOT/build-asan" -Dbuildtype=debugoptimized -Db_sanitize=address,undefined \
    -Db_lundef=false
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    run_suites "$ROOT/build-asan" "tests (ASan+UBSan build)" --suite unit --suite evp

# Constant-time check: signing under valgrind memcheck with the secrets
# undefined (test/ct, doc/design.md); one result, failing if it did not run.
ct_before="$pass $fail"
run_suites "$BUILD" "constant-time check (valgrind memcheck)" --suite ct
if [ "$pass $fail" = "$ct_before" ]; then
    echo "error: the constant-time check did not run (valgrind or valgrind/memcheck.h missing?)" >&2
    fail=$((fail + 1))
fi

echo "== fuzz (libFuzzer + ASan/UBSan, clang)"
# clang's libFuzzer runtime is libclang-rt-14-dev on Debian 12 (clang only recommends it)
fs_install_missing clang libclang-rt-14-dev
fuzz_dir=$ROOT/build-fuzz
fuzz_secs=${FASTSIG_FUZZ_SECONDS:-30}
[ "$soak" = 1 ] && fuzz_secs=${FASTSIG_FUZZ_SECONDS:-600}
fuzz_bins=()
for d in test/fuzz/corpus/*/; do # one corpus folder per target
    fuzz_bins+=("test/fuzz/fuzz_$(basename "$d")")
done
if [ -f "$fuzz_dir/build.ninja" ]; then
    meson setup --reconfigure "$fuzz_dir" >/dev/null
else
    CC=clang meson setup "$fuzz_dir" -Dfuzz=enabled -Dbuildtype=debugoptimized >/dev/null
fi
if ninja -C "$fuzz_dir" "${fuzz_bins[@]}" >/dev/null; then
    bash test/fuzz/run.sh "$fuzz_dir" "$fuzz_secs" | tee "$fuzz_dir/fuzz-summary.txt" || true
    read -r fuzz_pass fuzz_fail < <(sed -n 's/^fuzz: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' \
                                         "$fuzz_dir/fuzz-summary.txt") || true
    pass=$((pass + ${fuzz_pass:-0}))
    fail=$((fail + ${fuzz_fail:-${#fuzz_bins[@]}}))
else
    echo "error: the fuzz build failed (see above)" >&2
    fail=$((fail + ${#fuzz_bins[@]}))
fi

echo "== Debian package (scripts/package.sh)"
bash scripts/package.sh | tee "$BUILD/package-summary.txt" || true
read -r pkg_pass pkg_fail < <(sed -n 's/^package: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' \
                                   "$BUILD/package-summary.txt") || true
pkg_pass=${pkg_pass:-0}
pkg_fail=${pkg_fail:-1} # no summary line: the step itself failed
pass=$((pass + pkg_pass))
fail=$((fail + pkg_fail))

pass30=$pass
fail30=$fail

echo "== OpenSSL 3.5"
if ossl35=$(bash scripts/openssl35.sh | tail -n 1) && [ -x "$ossl35/bin/openssl" ]; then
    echo "== build (release, against $("$ossl35/bin/openssl" version))"
    fs_build "$ROOT/build-openssl35" -Dpkg_config_path="$ossl35/lib/pkgconfig"
    PATH=$ossl35/bin:$PATH run_suites "$ROOT/build-openssl35" "tests (release build, OpenSSL 3.5)" \
        --suite unit --suite evp --suite cli
else
    echo "error: no OpenSSL 3.5 to test against (scripts/openssl35.sh failed, see above)" >&2
    fail=$((fail + 1))
fi

echo
echo "package: $pkg_pass passed, $pkg_fail failed"
echo "OpenSSL 3.0: $pass30 passed, $fail30 failed"
echo "OpenSSL 3.5: $((pass - pass30)) passed, $((fail - fail30)) failed"
echo "fastsig: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
