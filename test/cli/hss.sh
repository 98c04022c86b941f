#!/usr/bin/env bash
# hss.sh - LMS / HSS through the real openssl binary: genpkey (default set,
# param: for one and two levels, seed: known answers, state:), pkey
# -pubout/-text (levels, index, remaining), pkeyutl -sign/-verify -rawin in
# processes that continue one state, dgst, an exhausted key, an unusable
# state, and RFC 8554's own public keys and signatures verified through an
# SPKI made from the raw key; every parameter set round-trips (default: every
# w at H5, each family at H10/W4, HSS mixes up to L = 8; FASTSIG_SOAK=1: every
# w at H10 and H15, each family at H20/W4) and bad param: names are refused;
# then the flows every stateful key shares (stateful_flows.sh: state file,
# unusable states, default state directories).
# The X.509 flows run in x509.sh.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/stateful_flows.sh"

lvec() { sed -n "s/^$2 = //p" "$VECTORS/lms/$1"; }
# spki_of HEX OUT: an SPKI (DER) around a raw 60-byte HSS public key
spki_of() {
    printf '304e300d060b2a864886f70d0109100311033d00%s' "$1" | xxd -r -p >"$2"
}
H10=LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4
d="$WORK/hss"
mkdir -p "$d"
echo "the message" >"$d/msg"

# --- genpkey, pkey -text ---
check "HSS: genpkey (default set, state:)" openssl genpkey "${PROV[@]}" -algorithm HSS \
    -pkeyopt "state:$d/k.state" -out "$d/k.pem"
cp "$WORK/err" "$d/gen.err"
check "HSS: genpkey showed progress" grep -q '\.\.\.\.' "$d/gen.err"
openssl pkey "${PROV[@]}" -in "$d/k.pem" -noout -text >"$d/k.txt" 2>&1
check "HSS: the default set is one level, $H10" grep -qxF "parameter set: $H10" "$d/k.txt"
check "HSS: pkey -text prints the levels" grep -qxF "levels: 1 (total height 10)" "$d/k.txt"
check_eq "HSS: pkey -text prints index and remaining" "$(grep '^state:' "$d/k.txt")" \
    "state: index 0, remaining 1024 of 1024 signatures"
L2="LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W8,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4"
check "LMS (alias): genpkey -pkeyopt param: two levels" openssl genpkey "${PROV[@]}" \
    -algorithm LMS -pkeyopt "param:$L2" -pkeyopt "state:$d/l2.state" -out "$d/l2.pem"
openssl pkey "${PROV[@]}" -in "$d/l2.pem" -noout -text >"$d/l2.txt" 2>&1
check "HSS: pkey -text names both levels" grep -qxF "parameter set: $L2" "$d/l2.txt"
check "HSS: ... level 1 on its own line" \
    grep -qxF "  level 1: LMS_SHA256_M32_H5 / LMOTS_SHA256_N32_W4 (height 5, w 4)" "$d/l2.txt"
check_eq "HSS: ... 2^15 signatures" "$(grep '^state:' "$d/l2.txt")" \
    "state: index 0, remaining 32768 of 32768 signatures"
for bad in LMS_SHA256_M32_H10 LMS_SHA256_M32_H10/LMOTS_SHAKE_N32_W4 "$H10,"; do
    check_fails "HSS: genpkey refuses param:$bad" openssl genpkey "${PROV[@]}" -algorithm HSS \
        -pkeyopt "param:$bad" -pkeyopt "state:$d/bad.state"
done
check "HSS: no state left by a refused set" test ! -e "$d/bad.state"

# --- sign / verify; each process continues the state ---
check "HSS: pkey -pubout" openssl pkey "${PROV[@]}" -in "$d/l2.pem" -pubout -out "$d/l2.pub"
check "HSS: pkey -pubin -text" grep -q "levels: 2 (top: LMS_SHA256_M32_H10" \
    <(openssl pkey "${PROV[@]}" -pubin -in "$d/l2.pub" -noout -text)
for i in 1 2 3; do
    check "HSS: pkeyutl -sign -rawin, process $i" openssl pkeyutl "${PROV[@]}" -sign -rawin \
        -inkey "$d/l2.pem" -in "$d/msg" -out "$d/s$i.sig"
    check "HSS: ... verifies (public key)" openssl pkeyutl "${PROV[@]}" -verify -rawin -pubin \
        -inkey "$d/l2.pub" -in "$d/msg" -sigfile "$d/s$i.sig"
    check_eq "HSS: ... index $i" "$(state_line "$d/l2.pem" | sed 's/,.*//')" "state: index $i"
done
# u32 || top (4 + 4 + 32 x 35 + 4 + 32 x 10) || lower public key (56) || lower (4 + 4 + 32 x 68 + 4 + 32 x 5)
check_eq "HSS: L = 2 signature size (RFC 8554 section 6.2)" "$(wc -c <"$d/s1.sig")" 3860
cp "$d/msg" "$d/bad"; echo x >>"$d/bad"
check_fails "HSS: pkeyutl -verify refuses another message" openssl pkeyutl "${PROV[@]}" -verify \
    -rawin -pubin -inkey "$d/l2.pub" -in "$d/bad" -sigfile "$d/s1.sig"
head -c 100 "$d/s1.sig" >"$d/short.sig"
check_fails "HSS: pkeyutl -verify refuses a truncated signature" openssl pkeyutl "${PROV[@]}" \
    -verify -rawin -pubin -inkey "$d/l2.pub" -in "$d/msg" -sigfile "$d/short.sig"
check "HSS: dgst -sign" openssl dgst "${PROV[@]}" -sign "$d/k.pem" -out "$d/dgst.sig" "$d/msg"
openssl pkey "${PROV[@]}" -in "$d/k.pem" -pubout -outform DER -out "$d/k.der"
check "HSS: dgst -verify (DER public key)" openssl dgst "${PROV[@]}" -verify "$d/k.der" \
    -keyform DER -signature "$d/dgst.sig" "$d/msg"
check_fails "HSS: dgst -sha256 -sign is refused (the message is signed whole)" \
    openssl dgst "${PROV[@]}" -sha256 -sign "$d/k.pem" -out "$d/x.sig" "$d/msg"
check "HSS: encrypted PKCS#8" openssl genpkey "${PROV[@]}" -algorithm HSS \
    -pkeyopt "param:LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W4" -pkeyopt "state:$d/e.state" \
    -aes-256-cbc -pass pass:secret -out "$d/e.pem"
check "HSS: sign with the encrypted key" openssl pkeyutl "${PROV[@]}" -sign -rawin \
    -inkey "$d/e.pem" -passin pass:secret -in "$d/msg" -out "$d/e.sig"

# --- an exhausted key, an unusable state ---
check "HSS: H5 key" openssl genpkey "${PROV[@]}" -algorithm HSS \
    -pkeyopt param:LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W8 -pkeyopt "state:$d/h5.state" -out "$d/h5.pem"
n=0
for i in $(seq 32); do
    openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$d/h5.pem" -in "$d/msg" -out "$d/h5.sig" \
        2>/dev/null && n=$((n + 1))
done
check_eq "HSS: 32 signatures from an H5 key" "$n" 32
check_sign_refused "HSS: the 33rd is refused" "key exhausted" "$d/h5.pem" "$d/msg" "$d/none.sig"
check "HSS: key exhausted names the state file" \
    grep -q "key exhausted: no signatures left:.*:state file $d/h5.state: all 32 indices of the key" \
    "$WORK/prev.err"
mv "$d/k.state" "$d/k.state.away"
check_sign_refused "HSS: pkeyutl -sign refuses without its state" \
    "signature state file is missing" "$d/k.pem" "$d/msg" "$d/none.sig"
check "HSS: ... verify still works" openssl pkeyutl "${PROV[@]}" -verify -rawin -inkey "$d/k.pem" \
    -in "$d/msg" -sigfile "$d/dgst.sig"
mv "$d/k.state.away" "$d/k.state"

# --- known answers: published keys from SEED || I; published signatures verify ---
if need_vectors; then
    for f in LMS_SHA256_M24_H5-LMOTS_SHA256_N24_W8 LMS_SHAKE_M32_H5-LMOTS_SHAKE_N32_W8; do
        check "HSS: genpkey -pkeyopt seed: ($f)" openssl genpkey "${PROV[@]}" -algorithm HSS \
            -pkeyopt "param:${f/-//}" -pkeyopt "seed:$(lvec "$f.txt" seed)$(lvec "$f.txt" I)" \
            -pkeyopt "state:$d/$f.state" -out "$d/$f.pem"
        openssl pkey "${PROV[@]}" -in "$d/$f.pem" -pubout -outform DER -out "$d/$f.spki"
        pub=$(lvec "$f.txt" pub)
        check_eq "HSS: SPKI BIT STRING is the published public key ($f)" \
            "$(hexof "$d/$f.spki" | tail -c ${#pub})" "$pub"
    done
    for f in rfc8554-tc1 rfc8554-tc2; do
        spki_of "$(lvec "$f.txt" pub)" "$d/$f.der"
        lvec "$f.txt" msg | xxd -r -p >"$d/$f.msg"
        lvec "$f.txt" sig | xxd -r -p >"$d/$f.sig"
        check "HSS: $f verifies through its raw public key" openssl pkeyutl "${PROV[@]}" -verify \
            -rawin -pubin -keyform DER -inkey "$d/$f.der" -in "$d/$f.msg" -sigfile "$d/$f.sig"
    done
    check_fails "HSS: ... not with test case 1's key" openssl pkeyutl "${PROV[@]}" -verify \
        -rawin -pubin -keyform DER -inkey "$d/rfc8554-tc1.der" -in "$d/rfc8554-tc2.msg" \
        -sigfile "$d/rfc8554-tc2.sig"
fi

# --- every parameter set, table-driven ---
# set_trip PARAM L TOTAL_H: genpkey on 2 threads, pkey -text (set, state),
# public key PEM and DER, private key DER decoded by pkey and signing (-keyform
# DER) in one process, the PEM key in a second; both verify under either
# public key, a flipped byte does not; the index advances by one per process.
set_trip() {
    local p=$1 L=$2 max=$((1 << $3)) t="$d/set" sig
    rm -rf "$t"; mkdir -p "$t"
    check "set $p: genpkey threads:2" openssl genpkey "${PROV[@]}" -algorithm HSS \
        -pkeyopt "param:$p" -pkeyopt threads:2 -pkeyopt "state:$t/k.state" -out "$t/k.pem"
    openssl pkey "${PROV[@]}" -in "$t/k.pem" -noout -text >"$t/k.txt" 2>&1
    check "set $p: pkey -text names it" grep -qxF "parameter set: $p" "$t/k.txt"
    check_eq "set $p: pkey -text: index 0 of 2^$3" "$(grep '^state:' "$t/k.txt")" \
        "state: index 0, remaining $max of $max signatures"
    openssl pkey "${PROV[@]}" -in "$t/k.pem" -pubout -out "$t/k.pub"
    openssl pkey "${PROV[@]}" -in "$t/k.pem" -pubout -outform DER -out "$t/pub.der"
    check "set $p: private key to DER" openssl pkey "${PROV[@]}" -in "$t/k.pem" -outform DER \
        -out "$t/k.der"
    check "set $p: the DER private key decodes" grep -qxF "parameter set: $p" \
        <(openssl pkey "${PROV[@]}" -inform DER -in "$t/k.der" -noout -text)
    check "set $p: the DER public key decodes" grep -q "^levels: $L" \
        <(openssl pkey "${PROV[@]}" -pubin -inform DER -in "$t/pub.der" -noout -text)
    for i in 1 2; do
        sig="$t/s$i.sig"
        if [ "$i" = 1 ]; then
            check "set $p: pkeyutl -sign (DER key)" openssl pkeyutl "${PROV[@]}" -sign -rawin \
                -keyform DER -inkey "$t/k.der" -in "$d/msg" -out "$sig"
        else
            check "set $p: pkeyutl -sign (PEM key)" openssl pkeyutl "${PROV[@]}" -sign -rawin \
                -inkey "$t/k.pem" -in "$d/msg" -out "$sig"
        fi
        check_eq "set $p: ... index $i" "$(state_line "$t/k.pem" | sed 's/,.*//')" "state: index $i"
        check_eq "set $p: ... u32str(L-1) leads the signature" "$(head -c4 "$sig" | hexof /dev/stdin)" \
            "$(printf %08x $((L - 1)))"
        check "set $p: ... verifies (PEM public key)" openssl pkeyutl "${PROV[@]}" -verify -rawin \
            -pubin -inkey "$t/k.pub" -in "$d/msg" -sigfile "$sig"
        check "set $p: ... verifies (DER public key)" openssl pkeyutl "${PROV[@]}" -verify -rawin \
            -pubin -keyform DER -inkey "$t/pub.der" -in "$d/msg" -sigfile "$sig"
    done
    cp "$t/s1.sig" "$t/bad.sig"
    flip_bit "$t/bad.sig" $(($(wc -c <"$t/bad.sig") / 2))
    check_fails "set $p: a flipped byte is refused" openssl pkeyutl "${PROV[@]}" -verify -rawin \
        -pubin -inkey "$t/k.pub" -in "$d/msg" -sigfile "$t/bad.sig"
}
# The default run: every LM-OTS set of every family at H5, each family at
# H10/W4; FASTSIG_SOAK=1 adds every w at H10 and H15 and each family at
# H20/W4 (every set at full height within a budget runs in evp/hss).
families="SHA256:32 SHA256:24 SHAKE:32 SHAKE:24"
for fam in $families; do
    f=${fam%:*} n=${fam#*:}
    for h in 5 10 15 20; do
        for w in 1 2 4 8; do
            case $h/$w in
                5/*) ;;
                10/4) ;;
                10/* | 15/*) soak || continue ;;
                20/4) soak || continue ;;
                *) continue ;;
            esac
            set_trip "LMS_${f}_M${n}_H$h/LMOTS_${f}_N${n}_W$w" 1 "$h"
        done
    done
done
# HSS: heights and w differing per level, L up to 8
lv() { printf 'LMS_%s_M%s_H%s/LMOTS_%s_N%s_W%s' "$1" "$2" "$3" "$1" "$2" "$4"; }
set_trip "$(lv SHA256 24 10 2),$(lv SHA256 24 5 8)" 2 15
set_trip "$(lv SHAKE 32 5 1),$(lv SHAKE 32 5 8),$(lv SHAKE 32 5 4)" 3 15
mix8=$(lv SHAKE 24 5 4)
for w in 1 8 2 4 1 8 2; do mix8="$mix8,$(lv SHAKE 24 5 $w)"; done
set_trip "$mix8" 8 40

# --- param: syntax: bad names and shapes are refused, saying why ---
ok5=$(lv SHA256 32 5 4)
for bad in "$ok5,$(lv SHA256 32 7 4)" "$ok5,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W3" \
    "$ok5,LMS_SHA256_M32_H5/LMOTS_SHAKE_N32_W4" "$ok5,$(lv SHAKE 32 5 4)" \
    "$ok5,$(lv SHA256 24 5 4)" "$ok5,lms_sha256_m32_h5/lmots_sha256_n32_w4" \
    "$ok5,LMS_SHA256_M32_H5" "$ok5,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4/LMOTS_SHA256_N32_W4" \
    "$ok5,,$ok5" ",$ok5" "$ok5;$ok5" "$ok5, $ok5" \
    "$mix8,$ok5"; do
    check_fails "HSS: genpkey refuses param:$bad" openssl genpkey "${PROV[@]}" -algorithm HSS \
        -pkeyopt "param:$bad" -pkeyopt "state:$d/bad.state"
    cp "$WORK/err" "$d/bad.err"
    case "$bad" in *H7/*) cp "$d/bad.err" "$d/bad.err.h7" ;; esac
    check "HSS: ... saying it is an unsupported parameter set" \
        grep -q "unsupported parameter set" "$d/bad.err"
    check "HSS: ... naming the param: text and why" grep -qF "parameter set $bad: " "$d/bad.err"
done
check "HSS: a bad level is named with its number and the reason" \
    grep -qF "level 2 (LMS_SHA256_M32_H7): not an LMS set name" "$d/bad.err.h7"
check "HSS: no state left by the refused sets" test ! -e "$d/bad.state"

# the shared flows; HSS's known answers are above (published signatures are
# at q = 5..7, not the first two indices stateful_flows checks)
stateful_flows HSS "$H10" "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8" - 1024
# hss_cache_file: the node cache file beside the state of a two-level key is
# written by genpkey; signing reads it; a cache that cannot be written is
# reported by `genpkey -text` (into -out, after the PEM) as for XMSS, and
# that key still signs.
hss_cache_file() {
    local d="$WORK/hsscache" p="$H10,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4"
    mkdir -p "$d/nc.state.cache"
    echo "cached" >"$d/msg"
    check "HSS cache: genpkey of two levels" openssl genpkey "${PROV[@]}" -algorithm HSS \
        -pkeyopt "param:$p" -pkeyopt "state:$d/k.state" -out "$d/k.pem"
    check "HSS cache: the cache file is beside the state" test -s "$d/k.state.cache"
    check "HSS cache: a key decoded anew signs with it" openssl pkeyutl "${PROV[@]}" -sign -rawin \
        -inkey "$d/k.pem" -in "$d/msg" -out "$d/msg.sig"
    check "HSS cache: ... and that signature verifies" openssl pkeyutl "${PROV[@]}" -verify \
        -rawin -inkey "$d/k.pem" -in "$d/msg" -sigfile "$d/msg.sig"
    openssl genpkey "${PROV[@]}" -algorithm HSS -pkeyopt "param:$p" -pkeyopt "state:$d/nc.state" \
        -out "$d/nc.pem" -text 2>/dev/null
    check "HSS cache: genpkey -text reports a cache it could not write" \
        grep -q '^node cache: not written (' "$d/nc.pem"
    check "HSS cache: ... and that key signs" openssl pkeyutl "${PROV[@]}" -sign -rawin \
        -inkey "$d/nc.pem" -in "$d/msg" -out "$d/nc.sig"
}
hss_cache_file

summary hss
