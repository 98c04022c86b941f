#!/usr/bin/env bash
# wots.sh - WOTSP (one-time WOTS+) through the real openssl binary: genpkey
# (W16 default, mode:w4), pkey -pubout/-text, pkeyutl -sign/-verify -rawin,
# dgst -sign/-verify, and the one-time rule across processes: the second
# signing attempt fails with "one-time key already used" and writes nothing.
source "$(dirname "$0")/lib.sh"
d="$WORK/wots"
mkdir -p "$d"
echo "one message" >"$d/msg"

check "genpkey WOTSP" openssl genpkey "${PROV[@]}" -algorithm WOTSP -pkeyopt "state:$d/a.state" \
    -out "$d/a.pem"
openssl pkey "${PROV[@]}" -in "$d/a.pem" -noout -text >"$d/a.txt" 2>&1
check "pkey -text: W16 SHA-256 by default" grep -q "parameter set: WOTSP-SHA2_256$" "$d/a.txt"
check "pkey -text: one signature left" grep -q "^state: index 0, remaining 1 of 1 signatures" "$d/a.txt"
check "pkey -pubout" openssl pkey "${PROV[@]}" -in "$d/a.pem" -pubout -out "$d/a.pub"
check "pkey -pubin -text" grep -q "WOTSP Public-Key" \
    <(openssl pkey "${PROV[@]}" -pubin -in "$d/a.pub" -noout -text)
check "pkeyutl -sign -rawin" openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$d/a.pem" \
    -in "$d/msg" -out "$d/a.sig"
check "pkeyutl -verify -rawin" openssl pkeyutl "${PROV[@]}" -verify -rawin -pubin -inkey "$d/a.pub" \
    -in "$d/msg" -sigfile "$d/a.sig"
check "pkey -text: none left" grep -q "^state: index 1, remaining 0 of 1" \
    <(openssl pkey "${PROV[@]}" -in "$d/a.pem" -noout -text)
check_sign_refused "a second signature (another process) is refused" "one-time key already used" \
    "$d/a.pem" "$d/msg" "$d/b.sig"
check "one-time key already used names the state file" \
    grep -q "one-time key already used:.*:state file $d/a.state: its one signature is spent" \
    "$WORK/prev.err"
check_fails "dgst -sign is refused too" openssl dgst "${PROV[@]}" -sign "$d/a.pem" -out "$d/b.sig" \
    "$d/msg"
echo "other" >"$d/other"
check_fails "verify refuses another message" openssl pkeyutl "${PROV[@]}" -verify -rawin -pubin \
    -inkey "$d/a.pub" -in "$d/other" -sigfile "$d/a.sig"
cp "$d/a.sig" "$d/long.sig"; printf x >>"$d/long.sig"
check_fails "verify refuses an extended signature" openssl pkeyutl "${PROV[@]}" -verify -rawin \
    -pubin -inkey "$d/a.pub" -in "$d/msg" -sigfile "$d/long.sig"

check "genpkey WOTSP -pkeyopt mode:w4" openssl genpkey "${PROV[@]}" -algorithm WOTSP \
    -pkeyopt mode:w4 -pkeyopt "state:$d/w4.state" -out "$d/w4.pem"
check "pkey -text: W4" grep -q "parameter set: WOTSP-SHA2_256_W4$" \
    <(openssl pkey "${PROV[@]}" -in "$d/w4.pem" -noout -text)
openssl pkey "${PROV[@]}" -in "$d/w4.pem" -pubout -out "$d/w4.pub"
check "dgst -sign (W4)" openssl dgst "${PROV[@]}" -sign "$d/w4.pem" -out "$d/w4.sig" "$d/msg"
check "dgst -verify (W4)" openssl dgst "${PROV[@]}" -verify "$d/w4.pub" -signature "$d/w4.sig" "$d/msg"
check_fails "dgst -sign again is refused" openssl dgst "${PROV[@]}" -sign "$d/w4.pem" \
    -out "$d/w4b.sig" "$d/msg"
check_fails "genpkey refuses mode:w8" openssl genpkey "${PROV[@]}" -algorithm WOTSP -pkeyopt mode:w8 \
    -pkeyopt "state:$d/w8.state"
check "genpkey -pkeyopt param:WOTSP-SHAKE256_192 mode:w256" openssl genpkey "${PROV[@]}" \
    -algorithm WOTSP -pkeyopt param:WOTSP-SHAKE256_192 -pkeyopt mode:w256 \
    -pkeyopt "state:$d/s.state" -out "$d/s.pem"
check "... signs once" openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$d/s.pem" -in "$d/msg" \
    -out "$d/s.sig"
check "... verifies" openssl pkeyutl "${PROV[@]}" -verify -rawin -inkey "$d/s.pem" -in "$d/msg" \
    -sigfile "$d/s.sig"
summary wots
