#!/usr/bin/env bash
# neighbours.sh - HSS and LMS with fastsig and OpenSSL's default provider loaded in either order,
# without -propquery. OpenSSL 3.6's default provider, built with enable-lms, has a verify-only
# "LMS" of its own under the name of fastsig's LMS row (doc/design.md, "LMS beside OpenSSL 3.6"):
# key generation, signing, SPKI / PKCS#8, X.509 and CMS (3.5 on) with HSS keys must work whichever
# provider comes first; `genpkey -algorithm LMS` reaches fastsig unless OpenSSL's own LMS is
# first. Elsewhere (3.0, 3.5, 3.6 as Debian builds it) the same flows run with fastsig the only
# "LMS". Raw LMS keys and signatures (3.6's) are the EVP program neighbours' (the CLI reads none).
source "$(dirname "$0")/lib.sh"

SET=LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8
printf 'one message, two providers\n' >"$WORK/msg"
# does the default provider have an LMS of its own?
ossl_lms=0
openssl list -signature-algorithms -provider default 2>/dev/null | grep -qw LMS && ossl_lms=1
echo "# $(openssl version): the default provider's own LMS: $([ $ossl_lms = 1 ] && echo yes || echo no)"
case $(openssl version) in
    "OpenSSL 3.0."*) cms_signs=0 ;;
    *) cms_signs=1 ;;
esac

for first in default fastsig; do
    second=fastsig
    [ "$first" = fastsig ] && second=default
    P=(-provider-path "$MODULE_DIR" -provider "$first" -provider "$second")
    t="[$first first]"
    d=$WORK/$first
    mkdir -p "$d"

    # --- HSS: every operation reaches fastsig, whatever the order ---
    check "$t HSS: genpkey, one level" openssl genpkey "${P[@]}" -algorithm HSS \
        -pkeyopt "param:$SET" -pkeyopt "state:$d/k1.state" -out "$d/k1.pem"
    check "$t HSS: genpkey, two levels" openssl genpkey "${P[@]}" -algorithm HSS \
        -pkeyopt "param:$SET,$SET" -pkeyopt "state:$d/k2.state" -out "$d/k2.pem"
    check "$t HSS: pkeyutl -sign" openssl pkeyutl "${P[@]}" -sign -rawin -inkey "$d/k1.pem" \
        -in "$WORK/msg" -out "$d/k1.sig"
    check "$t HSS: pkeyutl -verify" openssl pkeyutl "${P[@]}" -verify -rawin -inkey "$d/k1.pem" \
        -in "$WORK/msg" -sigfile "$d/k1.sig"
    check "$t HSS: pkey -pubout (SPKI)" openssl pkey "${P[@]}" -in "$d/k1.pem" -pubout \
        -out "$d/k1.pub.pem"
    check "$t HSS: pkeyutl -verify -pubin (the SPKI)" openssl pkeyutl "${P[@]}" -verify -rawin \
        -pubin -inkey "$d/k1.pub.pem" -in "$WORK/msg" -sigfile "$d/k1.sig"
    check "$t HSS: PKCS#8 DER out" openssl pkey "${P[@]}" -in "$d/k2.pem" -outform DER \
        -out "$d/k2.der"
    check "$t HSS: PKCS#8 DER in" openssl pkey "${P[@]}" -inform DER -in "$d/k2.der" -noout
    check "$t HSS: dgst -sign, two levels" openssl dgst "${P[@]}" -sign "$d/k2.pem" \
        -out "$d/k2.sig" "$WORK/msg"
    check "$t HSS: dgst -prverify" openssl dgst "${P[@]}" -prverify "$d/k2.pem" \
        -signature "$d/k2.sig" "$WORK/msg"
    check "$t HSS: req -x509 self-signed" openssl req "${P[@]}" -x509 -new -key "$d/k2.pem" \
        -subj "/CN=HSS beside LMS" -days 2 -out "$d/ca.pem"
    check "$t HSS: verify the certificate" openssl verify "${P[@]}" -CAfile "$d/ca.pem" "$d/ca.pem"
    if [ "$cms_signs" = 1 ]; then
        check "$t HSS: cms -sign" openssl cms "${P[@]}" -sign -binary -md sha256 -in "$WORK/msg" \
            -signer "$d/ca.pem" -inkey "$d/k2.pem" -outform DER -out "$d/msg.cms"
        check "$t HSS: cms -verify" openssl cms "${P[@]}" -verify -binary -inform DER \
            -in "$d/msg.cms" -content "$WORK/msg" -CAfile "$d/ca.pem" -purpose any -out "$d/msg.out"
    fi

    # --- LMS: fastsig's when the fetch reaches it (raw LMS keys and signatures, which the
    # openssl commands do not read, are test/evp/test_neighbours_evp.c's) ---
    if [ "$first" = fastsig ] || [ "$ossl_lms" = 0 ]; then
        check "$t LMS: genpkey (fastsig answers LMS)" openssl genpkey "${P[@]}" -algorithm LMS \
            -pkeyopt "param:$SET" -pkeyopt "state:$d/l.state" -out "$d/l.pem"
        check "$t LMS: its key file is an HSS key" grep -q "^HSS " \
            <(openssl pkey "${P[@]}" -in "$d/l.pem" -noout -text 2>&1)
    else
        # the default provider answers LMS first, and its LMS generates no keys: HSS does
        check_fails "$t LMS: genpkey reaches 3.6's verify-only LMS" openssl genpkey "${P[@]}" \
            -algorithm LMS -pkeyopt "state:$d/l.state" -out "$d/l.pem"
    fi
done
summary neighbours
