#!/usr/bin/env bash
# demo.sh - install what is missing, build, and run fastsig's main job end to
# end through the real openssl command line.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
fs_install_missing
echo "== build"
fs_build "$BUILD"

DEMO=${DEMO_DIR:-$(mktemp -d)}
PROV=(-provider-path "$BUILD" -provider fastsig -provider default)
run() { echo "\$ $*"; "$@"; echo; }

echo "== loading the provider by path"
run openssl list -providers "${PROV[@]}"

echo "== Tillich-Zemor digests (NOT collision resistant; for compatibility with tzhash users)"
printf 'hello world' >"$DEMO/hello.txt"
head -c 1048576 /dev/urandom >"$DEMO/random.bin"
run openssl dgst "${PROV[@]}" -TZ "$DEMO/hello.txt" "$DEMO/random.bin"

echo "== the same through OPENSSL_CONF and a config made from provider.cnf"
sed "s|^# module = .*|module = $BUILD/fastsig.so|" provider.cnf >"$DEMO/openssl.cnf"
export OPENSSL_CONF="$DEMO/openssl.cnf"
run openssl list -providers
run openssl dgst -TZ "$DEMO/hello.txt"
unset OPENSSL_CONF

echo "== XMSS (RFC 8391 / RFC 9802): a stateful key, its state file, signatures, a CA"
X="$DEMO/xmss"; mkdir -p -m 0700 "$X" # a state directory nobody else may write
run openssl genpkey "${PROV[@]}" -algorithm XMSS -pkeyopt param:XMSS-SHA2_10_256 \
    -pkeyopt "state:$X/ca.state" -out "$X/ca.key"
run ls -l "$X"
run openssl pkey "${PROV[@]}" -in "$X/ca.key" -noout -text
run openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$X/ca.key" -in "$DEMO/hello.txt" -out "$X/hello.sig"
run openssl pkey "${PROV[@]}" -in "$X/ca.key" -pubout -out "$X/ca.pub"
run openssl pkeyutl "${PROV[@]}" -verify -rawin -pubin -inkey "$X/ca.pub" -in "$DEMO/hello.txt" \
    -sigfile "$X/hello.sig"
run openssl dgst "${PROV[@]}" -sign "$X/ca.key" -out "$X/random.sig" "$DEMO/random.bin"
run openssl dgst "${PROV[@]}" -verify "$X/ca.pub" -signature "$X/random.sig" "$DEMO/random.bin"
run openssl req "${PROV[@]}" -x509 -new -key "$X/ca.key" -subj "/CN=fastsig XMSS CA" -days 365 \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign -out "$X/ca.pem"
run openssl genpkey "${PROV[@]}" -algorithm XMSS -pkeyopt "state:$X/leaf.state" -out "$X/leaf.key"
run openssl req "${PROV[@]}" -new -key "$X/leaf.key" -subj "/CN=fastsig XMSS leaf" -out "$X/leaf.csr"
run openssl x509 "${PROV[@]}" -req -in "$X/leaf.csr" -CA "$X/ca.pem" -CAkey "$X/ca.key" \
    -CAcreateserial -days 30 -out "$X/leaf.pem"
openssl x509 "${PROV[@]}" -in "$X/leaf.pem" -noout -text | head -20
run openssl verify "${PROV[@]}" -CAfile "$X/ca.pem" "$X/leaf.pem"
echo "# the CA key after signing a file, a digest-signed file, its own certificate and the leaf:"
openssl pkey "${PROV[@]}" -in "$X/ca.key" -noout -text | grep '^state'
echo

echo "== XMSS^MT (default XMSSMT-SHA2_20/4_256: 2^20 signatures)"
run openssl genpkey "${PROV[@]}" -algorithm XMSSMT -pkeyopt "state:$X/mt.state" -out "$X/mt.key"
openssl pkey "${PROV[@]}" -in "$X/mt.key" -noout -text | head -3
run openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$X/mt.key" -in "$DEMO/hello.txt" -out "$X/mt.sig"
run openssl pkeyutl "${PROV[@]}" -verify -rawin -inkey "$X/mt.key" -in "$DEMO/hello.txt" \
    -sigfile "$X/mt.sig"

echo "== WOTS+ (WOTSP): a one-time key signs once, then refuses"
run openssl genpkey "${PROV[@]}" -algorithm WOTSP -pkeyopt mode:w16 -pkeyopt "state:$X/ots.state" \
    -out "$X/ots.key"
run openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$X/ots.key" -in "$DEMO/hello.txt" -out "$X/ots.sig"
run openssl pkeyutl "${PROV[@]}" -verify -rawin -inkey "$X/ots.key" -in "$DEMO/hello.txt" \
    -sigfile "$X/ots.sig"
echo "\$ openssl pkeyutl -sign ... (a second time)"
if out=$(openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$X/ots.key" -in "$DEMO/hello.txt" \
    -out "$X/ots2.sig" 2>&1); then echo "UNEXPECTED: signed twice"; exit 1; fi
grep -o 'one-time key already used' <<<"$out"
echo

echo "== Rabin-Williams: verification is one squaring (compare RSA's exponentiation)"
R="$DEMO/rw"; mkdir -p "$R"
run openssl genpkey "${PROV[@]}" -algorithm RW -pkeyopt bits:2048 -out "$R/rw.key"
openssl pkey "${PROV[@]}" -in "$R/rw.key" -noout -text | head -4
run openssl pkey "${PROV[@]}" -in "$R/rw.key" -pubout -out "$R/rw.pub"
run openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$R/rw.key" -in "$DEMO/hello.txt" -out "$R/hello.sig"
run openssl pkeyutl "${PROV[@]}" -verify -rawin -pubin -inkey "$R/rw.pub" -in "$DEMO/hello.txt" \
    -sigfile "$R/hello.sig"
run openssl dgst "${PROV[@]}" -sign "$R/rw.key" -sigopt rw-format:expanded -out "$R/random.esig" \
    "$DEMO/random.bin"
run openssl dgst "${PROV[@]}" -verify "$R/rw.pub" -sigopt rw-verify:probabilistic \
    -signature "$R/random.esig" "$DEMO/random.bin"
run openssl req "${PROV[@]}" -x509 -new -key "$R/rw.key" -subj "/CN=fastsig RW" -days 30 -out "$R/rw.pem"
run openssl verify "${PROV[@]}" -CAfile "$R/rw.pem" "$R/rw.pem"

echo "demo finished; files are in $DEMO"
