#!/usr/bin/env bash
# make_corpus.sh - (re)writes the seed corpora in corpus/<target>/ with the
# openssl CLI: valid keys, signatures, state files and a few broken ones, for
# every signature algorithm the module offers, on the parameter sets cheapest
# to verify (a seed's cost is paid at every mutation of it: n = 24, two
# XMSS^MT layers, WOTS+ with w = 4, HSS with two H5 levels). Encrypted keys use one
# PBKDF2 iteration for the same reason.
# Usage: FASTSIG_MODULE_DIR=build bash make_corpus.sh
set -eu
cd "$(dirname "$0")"
P=(-provider-path "${FASTSIG_MODULE_DIR:?}" -provider fastsig -provider default)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# the keys made here are thrown away: their key-id registry entries too
export FASTSIG_STATE_DIR=$W
targets=(decode_der decode_pem verify rw_sig tz_params state verify_lib)
for t in "${targets[@]}"; do
    rm -rf "corpus/$t"
    mkdir -p "corpus/$t"
done
be16() { printf "\\x$(printf %02x $(($1 >> 8)))\\x$(printf %02x $(($1 & 255)))"; }
printf 'fuzz' >"$W/m"
avail=$(openssl list -key-managers "${P[@]}")
for alg in RW RW-P1363 WOTSP XMSS XMSSMT HSS; do
    grep -qw -- "$alg" <<<"$avail" || continue
    case $alg in
        RW*) opts=(-pkeyopt bits:2048) ;;
        XMSS) opts=(-pkeyopt param:XMSS-SHA2_10_192 -pkeyopt "state:$W/$alg.state") ;;
        XMSSMT) opts=(-pkeyopt param:XMSSMT-SHA2_20/2_192 -pkeyopt "state:$W/$alg.state") ;;
        WOTSP) opts=(-pkeyopt param:WOTSP-SHA2_192_W4 -pkeyopt "state:$W/$alg.state") ;;
        HSS) opts=(-pkeyopt "param:LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W4,LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W4"
                   -pkeyopt "state:$W/$alg.state") ;;
    esac
    a=$(tr 'A-Z-' 'a-z_' <<<"$alg")
    openssl genpkey "${P[@]}" -algorithm "$alg" "${opts[@]}" -out "$W/k.pem"
    [ -f "$W/$alg.state" ] && cp "$W/$alg.state" corpus/state/$a-fresh.state
    openssl pkey "${P[@]}" -in "$W/k.pem" -outform DER -out corpus/decode_der/$a-pkcs8.der
    openssl pkey "${P[@]}" -in "$W/k.pem" -pubout -outform DER -out "$W/spki.der"
    cp "$W/spki.der" corpus/decode_der/$a-spki.der
    head -c 40 "$W/spki.der" >corpus/decode_der/$a-spki-truncated.der
    cp "$W/k.pem" corpus/decode_pem/$a-pkcs8.pem
    openssl pkey "${P[@]}" -in "$W/k.pem" -pubout -out corpus/decode_pem/$a-spki.pem
    openssl pkcs8 "${P[@]}" -topk8 -in "$W/k.pem" -v2 aes-128-cbc -iter 1 -passout pass:fuzz \
        -out corpus/decode_pem/$a-enc.pem
    openssl pkeyutl "${P[@]}" -sign -rawin -inkey "$W/k.pem" -in "$W/m" -out "$W/sig"
    [ -f "$W/$alg.state" ] && cp "$W/$alg.state" corpus/state/$a-used.state
    n=$(stat -c %s "$W/spki.der")
    { be16 "$n"; cat "$W/spki.der" "$W/sig"; } >corpus/verify/$a-valid.bin
    { be16 "$n"; cat "$W/spki.der"; head -c 20 "$W/sig"; } >corpus/verify/$a-short.bin
    # rw_sig: mode byte (fuzz_rw_sig.c) || BE16 length || SPKI || signature
    rw_seed() { # MODE NAME [pkeyutl options]
        local mode=$1 name=$2
        shift 2
        openssl pkeyutl "${P[@]}" -sign -inkey "$W/k.pem" "$@" -out "$W/s"
        { printf "\\x$(printf %02x "$mode")"; be16 "$n"; cat "$W/spki.der" "$W/s"; } \
            >corpus/rw_sig/$a-$name.bin
    }
    case $alg in
        RW)
            rw_seed 0 compact -rawin -in "$W/m"
            rw_seed 1 compact-streamed -rawin -in "$W/m"
            rw_seed 4 expanded -rawin -in "$W/m" -pkeyopt rw-format:expanded
            rw_seed 6 expanded-probabilistic -rawin -in "$W/m" -pkeyopt rw-format:expanded ;;
        RW-P1363)
            rw_seed 0 sha256 -rawin -in "$W/m"
            rw_seed 1 sha256-streamed -rawin -in "$W/m"
            rw_seed 4 sha1 -rawin -in "$W/m" -digest sha1
            openssl dgst -sha256 -binary -out "$W/d256" "$W/m"
            openssl dgst -sha1 -binary -out "$W/d1" "$W/m"
            rw_seed 8 sha256-prehashed -in "$W/d256" -pkeyopt digest:SHA256
            rw_seed 12 sha1-prehashed -in "$W/d1" -pkeyopt digest:SHA1 ;;
    esac
done
# verify_lib (fuzz_verify_lib.c): mode (scheme - 1) || split || BE16 length ||
# raw public key || signature of "fuzz"; the raw key is the SPKI's last 52
# bytes (XMSS n = 24: oid || root || PUB_SEED; HSS / LMS M24: L || type ||
# type || I || T[1]); LMS is an L = 1 HSS key without its level counts
vl_seed() { # SCHEME-1 NAME ALGORITHM PARAM [strip]
    local mode=$1 name=$2 alg=$3 param=$4 strip=${5:-0}
    openssl genpkey "${P[@]}" -algorithm "$alg" -pkeyopt "param:$param" \
        -pkeyopt "state:$W/vl-$name.state" -out "$W/vl.pem"
    openssl pkey "${P[@]}" -in "$W/vl.pem" -pubout -outform DER -out "$W/vl.der"
    openssl pkeyutl "${P[@]}" -sign -rawin -inkey "$W/vl.pem" -in "$W/m" -out "$W/vl.sig"
    tail -c $((52 - strip)) "$W/vl.der" >"$W/vl.pk"
    tail -c +$((strip + 1)) "$W/vl.sig" >"$W/vl.s"
    { printf "\\x0$mode\\x02"; be16 $((52 - strip)); cat "$W/vl.pk" "$W/vl.s"; } \
        >corpus/verify_lib/$name-valid.bin
    { printf "\\x0$mode\\x02"; be16 $((52 - strip)); cat "$W/vl.pk"; head -c 40 "$W/vl.s"; } \
        >corpus/verify_lib/$name-short.bin
}
vl_seed 0 xmss XMSS XMSS-SHA2_10_192
vl_seed 1 xmssmt XMSSMT XMSSMT-SHA2_20/2_192
vl_seed 2 hss HSS LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W4,LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W4
vl_seed 3 lms HSS LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W8 4
# the HSS node cache (fuzz_state.c): a two-level key from the SEED the
# target knows (its hss_seed, first 24 bytes) so that it can seal mutations
HSS_SEED=5eed000102030405060708090a0b0c0d0e0f101112131415
openssl genpkey "${P[@]}" -algorithm HSS -pkeyopt "seed:${HSS_SEED}c0ffee00112233445566778899aabbcc" \
    -pkeyopt "param:LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W4,LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W4" \
    -pkeyopt "state:$W/c.state" -out "$W/c.pem"
cp "$W/c.state.cache" corpus/state/hss.cache
head -c 300 "$W/c.state.cache" >corpus/state/hss-short.cache
# the state parser: a forged image (slots that disagree) and a short file
head -c 512 corpus/state/xmss-used.state >"$W/a"
tail -c 512 corpus/state/xmss-fresh.state | cat "$W/a" - >corpus/state/mixed-slots.state
head -c 200 corpus/state/xmss-used.state >corpus/state/short.state
# tz_params: 64-byte prefix || split byte || message
tz() { printf %s "$1" | openssl dgst "${P[@]}" -TZ -binary; }
{ tz abc; printf '\x03hello world'; } >corpus/tz_params/prefix-abc.bin
{ tz ''; printf '\x00'; } >corpus/tz_params/prefix-empty.bin
{ head -c 64 /dev/zero; printf '\x01zero'; } >corpus/tz_params/prefix-zero.bin
{ tz fuzz | head -c 63; printf '\xff\x07abcdefgh'; } >corpus/tz_params/prefix-bit127.bin
echo "corpus written"
