#!/usr/bin/env bash
# rw.sh - Rabin-Williams through the real openssl binary, as a user runs it:
# genpkey (bits, the 3072 default, encrypted PEM), pkey -text / -pubout,
# pkeyutl -rawin sign/verify in both formats (rw-format, rw-verify), dgst
# with RW-P1363 and SHA-1/SHA-256, and the failures that must happen
# (tampered signature, wrong length, other message, wrong key, bad options).
source "$(dirname "$0")/lib.sh"

if ! openssl list -key-managers "${PROV[@]}" 2>/dev/null | grep -qw RW; then
    not_ok "RW key management not offered by the module"
    summary rw
    exit
fi

K=$WORK/rw.pem
printf 'Rabin-Williams from the command line\n' >"$WORK/msg"
printf 'Rabin-Williams from the command line?\n' >"$WORK/other"

check "genpkey RW bits:2048" openssl genpkey "${PROV[@]}" -algorithm RW -pkeyopt bits:2048 -out "$K"
check "pkey -pubout" openssl pkey "${PROV[@]}" -in "$K" -pubout -out "$WORK/rw.pub"
openssl pkey "${PROV[@]}" -in "$K" -noout -text >"$WORK/text" 2>&1
check "pkey -text prints the modulus" grep -q "modulus" "$WORK/text"
check "pkey -text prints p = 3 mod 8" grep -q "prime1 (p = 3 mod 8)" "$WORK/text"
check "pkey -text says 2048 bit" grep -q "2048 bit" "$WORK/text"
check_fails "genpkey RW bits:2047 refused" \
    openssl genpkey "${PROV[@]}" -algorithm RW -pkeyopt bits:2047 -out "$WORK/bad.pem"

# pkeyutl, both formats and both verifiers
sign() { openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$K" -in "$WORK/msg" "$@"; }
verify() { openssl pkeyutl "${PROV[@]}" -verify -rawin -pubin -inkey "$WORK/rw.pub" "$@"; }
check "pkeyutl -sign compact" sign -out "$WORK/c.sig"
check_eq "compact signature is nbytes + 1" "$(stat -c %s "$WORK/c.sig")" 257
check "pkeyutl -verify compact" verify -in "$WORK/msg" -sigfile "$WORK/c.sig"
check "pkeyutl -sign rw-format:expanded" sign -pkeyopt rw-format:expanded -out "$WORK/e.sig"
check_eq "expanded signature is 2 nbytes + 1" "$(stat -c %s "$WORK/e.sig")" 513
check "pkeyutl -verify expanded (exact)" verify -in "$WORK/msg" -sigfile "$WORK/e.sig"
check "pkeyutl -verify expanded rw-verify:probabilistic" \
    verify -pkeyopt rw-verify:probabilistic -in "$WORK/msg" -sigfile "$WORK/e.sig"
check "rw-verify:probabilistic accepts a compact signature" \
    verify -pkeyopt rw-verify:probabilistic -in "$WORK/msg" -sigfile "$WORK/c.sig"
check "signing is deterministic" sign -out "$WORK/c2.sig"
check "same signature twice" cmp "$WORK/c.sig" "$WORK/c2.sig"
check_fails "rw-format:bogus refused" sign -pkeyopt rw-format:bogus -out "$WORK/x.sig"

# failures
flip() { # flip IN OUT OFFSET
    perl -e 'local $/; open my $f, "<:raw", $ARGV[0] or die; my $d = <$f>;
             substr($d, $ARGV[2], 1) = chr(ord(substr($d, $ARGV[2], 1)) ^ 1);
             open my $o, ">:raw", $ARGV[1] or die; print $o $d;' "$1" "$2" "$3"
}
flip "$WORK/c.sig" "$WORK/c-s.sig" 10
flip "$WORK/c.sig" "$WORK/c-t.sig" 256
flip "$WORK/e.sig" "$WORK/e-k.sig" 300
head -c 256 "$WORK/c.sig" >"$WORK/c-short.sig"
check_fails "flipped bit of s rejected" verify -in "$WORK/msg" -sigfile "$WORK/c-s.sig"
check_fails "flipped tweak byte rejected" verify -in "$WORK/msg" -sigfile "$WORK/c-t.sig"
check_fails "flipped bit of k rejected" verify -in "$WORK/msg" -sigfile "$WORK/e-k.sig"
check_fails "flipped bit of k rejected (probabilistic)" \
    verify -pkeyopt rw-verify:probabilistic -in "$WORK/msg" -sigfile "$WORK/e-k.sig"
check_fails "truncated signature rejected" verify -in "$WORK/msg" -sigfile "$WORK/c-short.sig"
check_fails "other message rejected" verify -in "$WORK/other" -sigfile "$WORK/c.sig"
check "genpkey a second key" openssl genpkey "${PROV[@]}" -algorithm RW -pkeyopt bits:2048 -out "$WORK/rw2.pem"
check_fails "other key rejected" openssl pkeyutl "${PROV[@]}" -verify -rawin -inkey "$WORK/rw2.pem" \
    -in "$WORK/msg" -sigfile "$WORK/c.sig"

# encrypted PEM and the 3072-bit default
check "genpkey default size, encrypted PEM" openssl genpkey "${PROV[@]}" -algorithm RW \
    -aes-256-cbc -pass pass:rwpass -out "$WORK/enc.pem"
check "the file is encrypted" grep -q "BEGIN ENCRYPTED PRIVATE KEY" "$WORK/enc.pem"
check_fails "wrong passphrase refused" openssl pkey "${PROV[@]}" -in "$WORK/enc.pem" -passin pass:nope -noout
openssl pkey "${PROV[@]}" -in "$WORK/enc.pem" -passin pass:rwpass -noout -text >"$WORK/text3" 2>&1
check "default key is 3072 bit" grep -q "3072 bit" "$WORK/text3"
check "sign with the encrypted key" openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$WORK/enc.pem" \
    -passin pass:rwpass -in "$WORK/msg" -out "$WORK/d.sig"
check_eq "3072-bit compact signature is 385 bytes" "$(stat -c %s "$WORK/d.sig")" 385

# RW-P1363 with a digest: dgst -sign / -verify
P=$WORK/p1363.pem
check "genpkey RW-P1363" openssl genpkey "${PROV[@]}" -algorithm RW-P1363 -pkeyopt bits:2048 -out "$P"
check "pkey -pubout (RW-P1363)" openssl pkey "${PROV[@]}" -in "$P" -pubout -out "$WORK/p1363.pub"
for md in sha1 sha256; do
    check "dgst -$md -sign (RW-P1363)" openssl dgst "${PROV[@]}" -"$md" -sign "$P" -out "$WORK/p-$md.sig" "$WORK/msg"
    check_eq "P1363 signature is nbytes ($md)" "$(stat -c %s "$WORK/p-$md.sig")" 256
    check "dgst -$md -verify (RW-P1363)" openssl dgst "${PROV[@]}" -"$md" -verify "$WORK/p1363.pub" \
        -signature "$WORK/p-$md.sig" "$WORK/msg"
    check_fails "dgst -$md -verify, other message" openssl dgst "${PROV[@]}" -"$md" \
        -verify "$WORK/p1363.pub" -signature "$WORK/p-$md.sig" "$WORK/other"
done
check_fails "SHA-1 signature under SHA-256 rejected" openssl dgst "${PROV[@]}" -sha256 \
    -verify "$WORK/p1363.pub" -signature "$WORK/p-sha1.sig" "$WORK/msg"

# RW-P1363 through pkeyutl without -rawin: the input is the digest (EVP_PKEY_sign)
for md in sha1 sha256; do
    openssl dgst -"$md" -binary "$WORK/msg" >"$WORK/d-$md"
    check "pkeyutl -sign of a $md digest (RW-P1363)" openssl pkeyutl "${PROV[@]}" -sign -inkey "$P" \
        -in "$WORK/d-$md" -pkeyopt "digest:$md" -out "$WORK/pd-$md.sig"
    check "equals dgst -$md -sign of the message" cmp "$WORK/pd-$md.sig" "$WORK/p-$md.sig"
    check "pkeyutl -verify of the $md digest" openssl pkeyutl "${PROV[@]}" -verify -pubin \
        -inkey "$WORK/p1363.pub" -in "$WORK/d-$md" -pkeyopt "digest:$md" -sigfile "$WORK/p-$md.sig"
done
check_fails "a SHA-1 digest under digest:sha256 is refused (wrong length)" openssl pkeyutl "${PROV[@]}" \
    -sign -inkey "$P" -in "$WORK/d-sha1" -pkeyopt digest:sha256 -out "$WORK/x.sig"
openssl dgst -sha256 -binary "$WORK/other" >"$WORK/d-other"
check_fails "the other message's digest does not verify" openssl pkeyutl "${PROV[@]}" -verify -pubin \
    -inkey "$WORK/p1363.pub" -in "$WORK/d-other" -pkeyopt digest:sha256 -sigfile "$WORK/p-sha256.sig"
check_fails "plain RW refuses a digest" openssl pkeyutl "${PROV[@]}" -sign -inkey "$K" \
    -in "$WORK/d-sha256" -pkeyopt digest:sha256 -out "$WORK/x.sig"

# Known answers (test/vectors/rw/cli): a fixed RW-P1363 key signs a given digest, and a message
# through dgst, with the same bytes on every OpenSSL version (RW-P1363 is deterministic).
if need_vectors; then
    kat=$VECTORS/rw/cli
    for md in sha1 sha256; do
        openssl dgst -"$md" -binary "$kat/message.txt" >"$WORK/kat-$md"
        check "known answer: pkeyutl -pkeyopt digest:$md" openssl pkeyutl "${PROV[@]}" -sign \
            -inkey "$kat/p1363-key.pem" -in "$WORK/kat-$md" -pkeyopt "digest:$md" -out "$WORK/kat-$md.sig"
        check "known answer: the $md signature's bytes" cmp "$WORK/kat-$md.sig" "$kat/p1363-$md.sig"
        check "known answer: dgst -$md -sign" openssl dgst "${PROV[@]}" -"$md" -sign \
            "$kat/p1363-key.pem" -out "$WORK/kat-dgst-$md.sig" "$kat/message.txt"
        check "known answer: dgst -$md signature's bytes" cmp "$WORK/kat-dgst-$md.sig" \
            "$kat/p1363-$md.sig"
    done
fi

summary rw
