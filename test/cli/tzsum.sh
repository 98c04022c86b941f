#!/usr/bin/env bash
# tzsum.sh - the tzsum tool as a user runs it: digests of files and stdin,
# --check, --concat, --subtract-left/right, and every error with its exit code.
source "$(dirname "$0")/lib.sh"
TZSUM="$MODULE_DIR/tools/tzsum"
if [ ! -x "$TZSUM" ]; then
    not_ok "tzsum not built: looked for $TZSUM"
    summary tzsum
    exit 1
fi

# check_rc DESCRIPTION WANT_RC COMMAND...: passes when the command exits WANT_RC
check_rc() {
    local d=$1 want=$2; shift 2
    "$@" >"$WORK/out" 2>"$WORK/err"; local rc=$?
    if [ "$rc" -eq "$want" ]; then ok "$d (exit $rc)"; else
        not_ok "$d: exit $rc, want $want"; sed 's/^/    /' "$WORK/err" | head -5; fi
}

printf 'abc' >"$WORK/abc"
want_abc=00000000000000000000000001cfbf620000000000000000000000000146e6f100000000000000000000000000d91897000000000000000000000000008ebe73
check_eq "tzsum FILE prints '<hex>  FILE'" "$("$TZSUM" "$WORK/abc")" "$want_abc  $WORK/abc"
check_eq "tzsum - reads stdin" "$("$TZSUM" - <"$WORK/abc")" "$want_abc  -"
check_eq "tzsum with no FILE reads stdin" "$("$TZSUM" <"$WORK/abc")" "$want_abc  -"
: >"$WORK/empty"
want_empty=00000000000000000000000000000001000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001
check_eq "empty file is the identity" "$("$TZSUM" "$WORK/empty" | cut -d' ' -f1)" "$want_empty"

# known answers, including inputs larger than one read
if need_vectors; then
    n=0; bad=0
    while IFS=$'\t' read -r id len spec want; do
        perl -e '
            my ($spec, $file) = @ARGV; my $d;
            if ($spec =~ /^hex:(.*)$/) { $d = pack("H*", $1) }
            elsif ($spec =~ /^pat131:(\d+)$/) { $d = join "", map { chr(($_ * 131 + 7) & 255) } 0 .. $1 - 1 }
            elsif ($spec =~ /^seq:(\d+)$/) { $d = join "", map { chr($_ & 255) } 0 .. $1 - 1 }
            else { exit 1 }
            open my $f, ">:raw", $file or die; print $f $d;' "$spec" "$WORK/in" || continue
        got=$("$TZSUM" "$WORK/in" | cut -d' ' -f1)
        n=$((n + 1)); [ "$got" = "$want" ] || { bad=$((bad + 1)); echo "    mismatch $id"; }
    done < <(grep -P '^(tzhash-test-|seq-(0|1|63|64|65|255|256)\t|pat131-(1000|4097|65537|1048576)\t)' \
        "$VECTORS/tz/tzhash.txt")
    check_eq "tzsum matches $n vector digests" "$bad" "0"
    [ "$n" -ge 15 ] && ok "at least 15 vector lines checked ($n)" || not_ok "only $n vector lines checked"
fi

# several files, like sha256sum; a missing one is an I/O error (2), others still printed
printf 'hello' >"$WORK/b"
"$TZSUM" "$WORK/abc" "$WORK/b" >"$WORK/list"
check_eq "two files, two lines" "$(wc -l <"$WORK/list" | tr -d ' ')" "2"
check_rc "missing file" 2 "$TZSUM" "$WORK/abc" "$WORK/nonexistent"
check_eq "  ...and the readable file is still printed" "$(cut -d' ' -f1 "$WORK/out")" "$want_abc"

# --check
check_rc "--check of a good list" 0 "$TZSUM" --check "$WORK/list"
check_eq "--check prints 'FILE: OK'" "$(head -1 "$WORK/out")" "$WORK/abc: OK"
check_rc "--check from stdin" 0 sh -c "\"$TZSUM\" --check - <\"$WORK/list\""
sed "s/^\(.*\)  \(.*\)$/\1 *\2/" "$WORK/list" >"$WORK/list-binary"
check_rc "--check accepts '<hex> *FILE' (binary marker)" 0 "$TZSUM" --check "$WORK/list-binary"
printf 'changed' >"$WORK/b"
check_rc "--check after a file changed" 1 "$TZSUM" --check "$WORK/list"
check_eq "  ...prints FAILED for it" "$(grep -c ': FAILED$' "$WORK/out")" "1"
check_eq "  ...and OK for the other" "$(grep -c ': OK$' "$WORK/out")" "1"
rm -f "$WORK/b"
check_rc "--check with a listed file missing" 1 "$TZSUM" --check "$WORK/list"
echo "not a checksum line" >"$WORK/junk"
check_rc "--check of a list with no valid line" 1 "$TZSUM" --check "$WORK/junk"
grep -q 'improperly formatted' "$WORK/err" && ok "  ...says improperly formatted" || not_ok "  ...no format warning"
{ echo "$want_abc  $WORK/abc"; echo "zz${want_abc:2}  $WORK/abc"; } >"$WORK/mixed"
check_rc "--check skips a malformed line, checks the rest" 0 "$TZSUM" --check "$WORK/mixed"
check_rc "--check of a missing list" 2 "$TZSUM" --check "$WORK/nolist"

# --concat and --subtract on the tzhash vectors
if need_vectors; then
    line=$(grep '^tzhash-subtract-0' "$VECTORS/tz/tzhash.txt")
    first=$(echo "$line" | grep -o 'first=[0-9a-f]*' | cut -d= -f2)
    second=$(echo "$line" | grep -o 'second=[0-9a-f]*' | cut -d= -f2)
    result=$(echo "$line" | grep -o 'result=[0-9a-f]*' | cut -d= -f2)
    check_eq "--concat A B" "$("$TZSUM" --concat "$first" "$second")" "$result"
    check_eq "--subtract-right C B gives A" "$("$TZSUM" --subtract-right "$result" "$second")" "$first"
    check_eq "--subtract-left C A gives B" "$("$TZSUM" --subtract-left "$result" "$first")" "$second"
    parts=()
    for i in 0 1 2 3 4 5 6 7 8 9; do
        parts+=("$(grep -P "^tzhash-concat-part-$i\t" "$VECTORS/tz/tzhash.txt" | cut -f2)")
    done
    check_eq "--concat of tzhash's 10 parts" "$("$TZSUM" --concat "${parts[@]}")" \
        "$(grep -P '^tzhash-concat-hash\t' "$VECTORS/tz/tzhash.txt" | cut -f2)"
fi
# homomorphism on real files: H(a||b) = H(a)*H(b), and back
head -c 100003 /dev/urandom >"$WORK/a"; head -c 70001 /dev/urandom >"$WORK/b"
cat "$WORK/a" "$WORK/b" >"$WORK/ab"
ha=$("$TZSUM" "$WORK/a" | cut -d' ' -f1); hb=$("$TZSUM" "$WORK/b" | cut -d' ' -f1)
hab=$("$TZSUM" "$WORK/ab" | cut -d' ' -f1)
check_eq "--concat H(a) H(b) = H(a||b) on files" "$("$TZSUM" --concat "$ha" "$hb")" "$hab"
check_eq "--subtract-left H(ab) H(a) = H(b)" "$("$TZSUM" --subtract-left "$hab" "$ha")" "$hb"
check_eq "--subtract-right H(ab) H(b) = H(a)" "$("$TZSUM" --subtract-right "$hab" "$hb")" "$ha"
check_eq "--concat of nothing is the empty digest" "$("$TZSUM" --concat)" "$want_empty"
check_eq "uppercase hex accepted" "$("$TZSUM" --concat "$(echo "$ha" | tr a-f A-F)")" "$ha"

# errors and their exit codes
check_rc "bad hex character" 3 "$TZSUM" --concat "g${ha:1}"
check_rc "odd number of hex digits" 3 "$TZSUM" --concat "${ha}0"
check_rc "wrong length (63 bytes)" 4 "$TZSUM" --concat "${ha:2}"
check_rc "wrong length (65 bytes)" 4 "$TZSUM" --concat "${ha}00"
check_rc "empty digest argument" 4 "$TZSUM" --concat ""
grep -q '0 bytes' "$WORK/err" && ok "  ...says how long it was" || not_ok "  ...no length in message"
bit127="8${ha:1}"
check_rc "element with bit 127 set (c00)" 5 "$TZSUM" --concat "$bit127"
check_rc "element with bit 127 set (c11), subtract" 5 "$TZSUM" --subtract-left "$ha" "${ha:0:96}f${ha:97}"
grep -q 'bit 127' "$WORK/err" && ok "  ...says bit 127" || not_ok "  ...message does not say bit 127"
zero=$(printf '0%.0s' $(seq 128))
check_rc "subtracting a singular matrix" 6 "$TZSUM" --subtract-right "$ha" "$zero"
check_rc "--subtract-left with one digest" 2 "$TZSUM" --subtract-left "$ha"
check_rc "unknown option" 2 "$TZSUM" --frobnicate
check_rc "--check without a file" 2 "$TZSUM" --check
check_rc "--help" 0 "$TZSUM" --help
grep -q -- '--subtract-right' "$WORK/out" && ok "  ...--help lists the commands" || not_ok "  ...--help incomplete"

summary tzsum
