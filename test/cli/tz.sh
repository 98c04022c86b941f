#!/usr/bin/env bash
# tz.sh - the TZ digest through the real openssl binary, as a user runs it.
source "$(dirname "$0")/lib.sh"

# make_input SPEC FILE: write the bytes of a vectors input spec to FILE
make_input() {
    perl -e '
        my ($spec, $file) = @ARGV; my $d;
        if ($spec =~ /^hex:(.*)$/)        { $d = pack("H*", $1) }
        elsif ($spec =~ /^ascii:(.*)$/s)  { $d = $1 }
        elsif ($spec =~ /^seq:(\d+)$/)    { $d = join "", map { chr($_ & 255) } 0 .. $1 - 1 }
        elsif ($spec =~ /^pat131:(\d+)$/) { $d = join "", map { chr(($_ * 131 + 7) & 255) } 0 .. $1 - 1 }
        elsif ($spec =~ /^rep:(..):(\d+)$/) { $d = chr(hex $1) x $2 }
        else { exit 1 }
        open my $f, ">:raw", $file or die; print $f $d;' "$1" "$2"
}

if need_vectors; then
    # every tzhash-test line, the ascii ones, and a spread of the generated ones
    grep -P '^(tzhash-test-|ascii-|byte-|seq-(0|1|63|64|65|255|256)\t|pat131-(1000|4097|65537|1048576)\t|rep-)' \
        "$VECTORS/tz/tzhash.txt" | while IFS=$'\t' read -r id len spec want; do
        make_input "$spec" "$WORK/in" || { echo "FAIL - cannot expand $spec"; continue; }
        got=$(openssl dgst "${PROV[@]}" -TZ "$WORK/in" | sed 's/^TZ(.*)= //')
        [ "$got" = "$want" ] && echo "ok $id" || echo "FAIL $id got $got want $want"
    done >"$WORK/vectors.log"
    n=$(grep -c '^ok ' "$WORK/vectors.log")
    bad=$(grep -c '^FAIL' "$WORK/vectors.log")
    check_eq "openssl dgst -TZ matches $n tzhash vectors, $bad mismatches" "$bad" "0"
    [ "$n" -ge 30 ] && ok "at least 30 vector lines checked ($n)" || not_ok "only $n vector lines checked"
fi

printf 'abc' >"$WORK/abc"
want_abc=00000000000000000000000001cfbf620000000000000000000000000146e6f100000000000000000000000000d91897000000000000000000000000008ebe73
check_eq "dgst prints TZ(file)= digest" "$(openssl dgst "${PROV[@]}" -TZ "$WORK/abc")" "TZ($WORK/abc)= $want_abc"
check_eq "dgst -TILLICH-ZEMOR alias" "$(openssl dgst "${PROV[@]}" -TILLICH-ZEMOR -r "$WORK/abc")" "$want_abc *$WORK/abc"
check_eq "dgst from stdin" "$(openssl dgst "${PROV[@]}" -TZ <"$WORK/abc" | sed 's/^.*= //')" "$want_abc"
check_eq "fastsig alone (no default provider)" \
    "$(openssl dgst -provider-path "$MODULE_DIR" -provider fastsig -TZ -r "$WORK/abc")" "$want_abc *$WORK/abc"

check "list -providers shows fastsig" openssl list -providers "${PROV[@]}"
grep -q "fastsig" "$WORK/out" && ok "fastsig named in the provider list" || not_ok "fastsig not in provider list"
openssl list -digest-algorithms -provider-path "$MODULE_DIR" -provider fastsig >"$WORK/digests" 2>&1
grep -q "TZ" "$WORK/digests" && ok "list -digest-algorithms shows TZ" || not_ok "TZ missing from list -digest-algorithms"
check_fails "unknown digest is an error" openssl dgst "${PROV[@]}" -NOT-A-DIGEST "$WORK/abc"

# through OPENSSL_CONF, from provider.cnf with the module path filled in
sed "s|^# module = .*|module = $MODULE_DIR/fastsig.so|" "$(dirname "$0")/../../provider.cnf" >"$WORK/openssl.cnf"
check_eq "OPENSSL_CONF=provider.cnf: dgst -TZ" \
    "$(OPENSSL_CONF="$WORK/openssl.cnf" openssl dgst -TZ -r "$WORK/abc")" "$want_abc *$WORK/abc"
OPENSSL_CONF="$WORK/openssl.cnf" openssl list -providers >"$WORK/providers" 2>&1
grep -q fastsig "$WORK/providers" && ok "OPENSSL_CONF: fastsig active" || not_ok "OPENSSL_CONF: fastsig not listed"
# OPENSSL_MODULES instead of -provider-path
check_eq "OPENSSL_MODULES finds the module" \
    "$(OPENSSL_MODULES="$MODULE_DIR" openssl dgst -provider fastsig -TZ -r "$WORK/abc")" "$want_abc *$WORK/abc"

summary tz
