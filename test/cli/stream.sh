#!/usr/bin/env bash
# stream.sh - messages signed as they stream, through the real openssl: for
# every stateful kind, two keys from one seed (each with its own state) sign
# the same index, one through `dgst -sign` fed by a pipe in pieces of a random
# size (OpenSSL 3.0 streams it to the provider), the other through `pkeyutl
# -sign -rawin`: the signatures are equal and verify both ways. On 3.0,
# `dgst -sign` of a 96 MiB message keeps the peak RSS under 40 MiB (the
# provider held the whole message before: over 200 MiB). OpenSSL 3.5's apps
# read such a key's input whole themselves (its mandatory digest is none),
# so the memory check is 3.0's; 3.5 streams through EVP (evp/stream).
source "$(dirname "$0")/lib.sh"
S="$WORK/stream" # not d: check() has a local d
mkdir -p "$S"
seed() { head -c "$1" /dev/zero | tr '\0' '\7' | od -An -v -tx1 | tr -d ' \n'; }

# key NAME ALG PARAM SEEDLEN: NAME.pem and NAME.pub, with a default state
# directory of its own (one seed, two keys: two machines for the registry)
key() {
    local name=$1 alg=$2 param=$3 opts=(-pkeyopt "seed:$(seed "$4")" -pkeyopt "state:$S/$1.state")
    [ -n "$param" ] && opts+=(-pkeyopt "param:$param")
    FASTSIG_STATE_DIR="$S/dir-$name" openssl genpkey "${PROV[@]}" -algorithm "$alg" "${opts[@]}" \
        -out "$S/$name.pem" >/dev/null 2>&1 &&
        openssl pkey "${PROV[@]}" -in "$S/$name.pem" -pubout -out "$S/$name.pub"
}

kinds=("XMSS XMSS-SHA2_10_256 96" "XMSSMT XMSSMT-SHA2_20/4_256 96"
       "HSS LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W2 48"
       "HSS LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W4 40" "WOTSP WOTSP-SHA2_256 96")
sizes=(1 64 100000 3000001)
for row in "${kinds[@]}"; do
    read -r alg param seedlen <<<"$row"
    n=${#sizes[@]}
    [ "$alg" = WOTSP ] && n=1 # one signature
    check "$param: two keys from one seed" key a "$alg" "$param" "$seedlen"
    key b "$alg" "$param" "$seedlen"
    for ((i = 0; i < n; i++)); do
        size=${sizes[$(((i + 2) % ${#sizes[@]}))]}
        head -c "$size" /dev/urandom >"$S/msg"
        bs=$((RANDOM % 9000 + 1))
        check "$param: dgst -sign of $size bytes in pieces of $bs" \
            bash -c "dd if='$S/msg' bs=$bs 2>/dev/null | openssl dgst ${PROV[*]} -sign '$S/a.pem' -out '$S/a.sig'"
        check "$param: pkeyutl -sign -rawin" openssl pkeyutl "${PROV[@]}" -sign -rawin \
            -inkey "$S/b.pem" -in "$S/msg" -out "$S/b.sig"
        check "$param: the same signature ($size bytes)" cmp "$S/a.sig" "$S/b.sig"
        check "$param: dgst -verify" openssl dgst "${PROV[@]}" -verify "$S/b.pub" \
            -signature "$S/a.sig" "$S/msg"
        check "$param: pkeyutl -verify -rawin" openssl pkeyutl "${PROV[@]}" -verify -rawin -pubin \
            -inkey "$S/a.pub" -in "$S/msg" -sigfile "$S/b.sig"
        printf x >>"$S/msg"
        check_fails "$param: another message fails" openssl dgst "${PROV[@]}" -verify "$S/b.pub" \
            -signature "$S/a.sig" "$S/msg"
    done
    rm -rf "$S"/a.* "$S"/b.* "$S"/dir-*
done

# peak RSS (KiB) of a command, from its rusage
peak_rss() { python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"; }
if openssl version | grep -q "^OpenSSL 3\.0"; then
    key a XMSS XMSS-SHA2_10_256 96
    head -c $((96 << 20)) /dev/zero >"$S/big"
    rss=$(peak_rss openssl dgst "${PROV[@]}" -sign "$S/a.pem" -out "$S/a.sig" "$S/big")
    check "dgst -sign of 96 MiB: peak RSS $rss KiB, under 40 MiB" test "${rss:-999999}" -lt 40960
    check "... and it verifies" openssl dgst "${PROV[@]}" -verify "$S/a.pub" -signature "$S/a.sig" \
        "$S/big"
    rm -f "$S/big"
else
    echo "skip - dgst -sign memory: $(openssl version | cut -d' ' -f1-2)'s apps hold the input of a key without digest"
fi
summary stream
