#!/usr/bin/env bash
# xmss.sh - XMSS through the real openssl binary: genpkey (default set,
# param:, seed: known answer, state:, encrypted), pkey -pubout/-text (index,
# remaining), pkeyutl -sign/-verify -rawin, dgst -sign/-verify, the cache
# file, unusable states, default state directories (stateful_flows.sh); the
# threads: key-generation option. The X.509 flows run in x509.sh.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/stateful_flows.sh"

stateful_flows XMSS XMSS-SHA2_10_256 XMSS-SHAKE256_10_192 XMSS-SHA2_10_256.txt 1024

# --- -pkeyopt threads:N: the vectors' key on 1 and on 2 threads; bad N refused ---
d="$WORK/threads"
mkdir -p "$d"
if need_vectors; then
    pk=$(vec XMSS-SHA2_10_256.txt pk)
    for t in 1 2; do
        # the vectors' key again: each generation on a "machine" (key-id registry) of its own
        check "XMSS: genpkey -pkeyopt threads:$t" env FASTSIG_STATE_DIR="$d/machine$t" \
            openssl genpkey "${PROV[@]}" -algorithm XMSS \
            -pkeyopt "seed:$(vec XMSS-SHA2_10_256.txt seed)" -pkeyopt "threads:$t" \
            -pkeyopt "state:$d/t$t.state" -out "$d/t$t.pem"
        openssl pkey "${PROV[@]}" -in "$d/t$t.pem" -pubout -outform DER -out "$d/t$t.spki"
        check_eq "XMSS: threads:$t gives the vectors' pk" "$(hexof "$d/t$t.spki" | tail -c ${#pk})" "$pk"
    done
fi
for t in 0 65 -1 two; do
    check_fails "XMSS: genpkey -pkeyopt threads:$t refused" openssl genpkey "${PROV[@]}" \
        -algorithm XMSS -pkeyopt "threads:$t" -pkeyopt "state:$d/bad.state" -out "$d/bad.pem"
done
openssl genpkey "${PROV[@]}" -algorithm XMSS -pkeyopt threads:0 -pkeyopt "state:$d/bad.state" \
    -out "$d/bad.pem" >/dev/null 2>"$d/err"
check "XMSS: threads:0 says what it takes" grep -q 'threads: a whole number from 1 to 64' "$d/err"
check "XMSS: no key file or state left by a refused threads:" test ! -e "$d/bad.state"
summary xmss
