#!/usr/bin/env bash
# fault.sh - damaged stateful keys and verify-after-sign through the real
# openssl binary: a PKCS#8 key (DER) with one bit of SK_SEED, PUB_SEED or
# root flipped is refused by pkeyutl -sign with "private key does not match
# its public key", no signature bytes, the state's index unmoved and the
# node cache file unchanged (XMSS, XMSS^MT: with and without the cache
# file); -pkeyopt verify-after-sign:1 signs and the signature verifies;
# verify-after-sign:2 is refused.
source "$(dirname "$0")/lib.sh"

# state_line KEYFILE: the "state:" line of pkey -text
state_line() { openssl pkey "${PROV[@]}" -in "$1" -noout -text 2>&1 | grep '^state:'; }
# flip FILE OFFSET: xor one bit of the byte at OFFSET
flip() {
    local b
    b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf "\\$(printf %03o $((b ^ 8)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# ALG SK_CORE_BYTES IDX_BYTES N
for row in "XMSS 136 4 32" "XMSSMT 135 3 32" "WOTSP 132 0 32"; do
    read -r alg core idxb n <<<"$row"
    d="$WORK/$alg"
    mkdir -p "$d"
    echo "the message" >"$d/msg"
    check "$alg: genpkey" genkey "$alg" "$d/k.pem"
    if [ "$alg" != WOTSP ]; then
        check "$alg: a first signature" openssl pkeyutl "${PROV[@]}" -sign -rawin \
            -inkey "$d/k.pem" -in "$d/msg" -out "$d/first.sig"
    fi
    openssl pkey "${PROV[@]}" -in "$d/k.pem" -outform DER -out "$d/k.der"
    # privateKey contents: sk core || BE16(len) || state path, at the end
    start=$(($(stat -c %s "$d/k.der") - ${#d} - 12 - 2 - core))
    before=$(state_line "$d/k.pem")
    [ -e "$d/k.pem.state.cache" ] && cp "$d/k.pem.state.cache" "$d/cache.keep"
    for field in "SK_SEED 0" "root 2" "PUB_SEED 3"; do
        read -r fname fnum <<<"$field"
        for cache in with without; do
            [ "$alg" = WOTSP ] && [ $cache = with ] && continue
            [ $cache = without ] && rm -f "$d/k.pem.state.cache"
            cp "$d/k.der" "$d/bad.der"
            flip "$d/bad.der" $((start + 4 + idxb + fnum * n + 5))
            check_sign_refused "$alg: $fname flipped ($cache cache)" \
                "private key does not match its public key" "$d/bad.der" "$d/msg" "$d/bad.sig"
            check_eq "$alg: $fname flipped ($cache cache): index unmoved" \
                "$(state_line "$d/k.pem")" "$before"
            if [ $cache = with ]; then
                check "$alg: $fname flipped: cache file unchanged" cmp -s "$d/cache.keep" \
                    "$d/k.pem.state.cache"
            else
                check "$alg: $fname flipped: no cache file written" test ! -e "$d/k.pem.state.cache"
                [ -e "$d/cache.keep" ] && cp "$d/cache.keep" "$d/k.pem.state.cache"
            fi
        done
    done
    # verify-after-sign
    check_fails "$alg: -pkeyopt verify-after-sign:2 refused" openssl pkeyutl "${PROV[@]}" -sign \
        -rawin -inkey "$d/k.pem" -pkeyopt verify-after-sign:2 -in "$d/msg" -out "$d/v.sig"
    check "$alg: -pkeyopt verify-after-sign:1 signs" openssl pkeyutl "${PROV[@]}" -sign -rawin \
        -inkey "$d/k.pem" -pkeyopt verify-after-sign:1 -in "$d/msg" -out "$d/v.sig"
    openssl pkey "${PROV[@]}" -in "$d/k.pem" -pubout -out "$d/pub.pem"
    check "$alg: ... and its signature verifies" openssl pkeyutl "${PROV[@]}" -verify -rawin \
        -pubin -inkey "$d/pub.pem" -in "$d/msg" -sigfile "$d/v.sig"
done
summary fault
