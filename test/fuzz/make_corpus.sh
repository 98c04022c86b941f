#!/usr/bin/env bash
# make_corpus.sh - (re)writes the seed corpora in corpus/<target>/ with the
# openssl CLI: valid keys, signatures and a few broken ones, for every
# signature algorithm the module offers. Usage: FASTSIG_MODULE_DIR=build bash make_corpus.sh
set -eu
cd "$(dirname "$0")"
P=(-provider-path "${FASTSIG_MODULE_DIR:?}" -provider fastsig -provider default)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p corpus/decode_der corpus/decode_pem corpus/verify
avail=$(openssl list -key-managers "${P[@]}")
for alg in RW RW-P1363 WOTSP XMSS XMSSMT; do
    grep -qw -- "$alg" <<<"$avail" || continue
    case $alg in
        RW*) opts=(-pkeyopt bits:2048) ;;
        XMSS) opts=(-pkeyopt param:XMSS-SHA2_10_256 -pkeyopt "state:$W/$alg.state") ;;
        XMSSMT) opts=(-pkeyopt param:XMSSMT-SHA2_20/4_256 -pkeyopt "state:$W/$alg.state") ;;
        *) opts=(-pkeyopt "state:$W/$alg.state") ;;
    esac
    a=$(tr 'A-Z-' 'a-z_' <<<"$alg")
    openssl genpkey "${P[@]}" -algorithm "$alg" "${opts[@]}" -out "$W/k.pem"
    openssl pkey "${P[@]}" -in "$W/k.pem" -outform DER -out corpus/decode_der/$a-pkcs8.der
    openssl pkey "${P[@]}" -in "$W/k.pem" -pubout -outform DER -out corpus/decode_der/$a-spki.der
    head -c 40 corpus/decode_der/$a-spki.der >corpus/decode_der/$a-spki-truncated.der
    cp "$W/k.pem" corpus/decode_pem/$a-pkcs8.pem
    openssl pkey "${P[@]}" -in "$W/k.pem" -pubout -out corpus/decode_pem/$a-spki.pem
    openssl pkey "${P[@]}" -in "$W/k.pem" -aes128 -passout pass:fuzz -out corpus/decode_pem/$a-enc.pem
    printf 'fuzz' >"$W/m"
    openssl pkeyutl "${P[@]}" -sign -rawin -inkey "$W/k.pem" -in "$W/m" -out "$W/sig"
    spki=corpus/decode_der/$a-spki.der
    n=$(stat -c %s "$spki")
    { printf "\\x$(printf %02x $((n >> 8)))\\x$(printf %02x $((n & 255)))"; cat "$spki" "$W/sig"; } \
        >corpus/verify/$a-valid.bin
    { printf "\\x$(printf %02x $((n >> 8)))\\x$(printf %02x $((n & 255)))"; cat "$spki"; head -c 20 "$W/sig"; } \
        >corpus/verify/$a-short.bin
done
echo "corpus written"
