#!/usr/bin/env bash
# bc_vectors.sh - what Bouncy Castle 1.72 made (test/vectors/bc, its README gives the
# provenance), read by fastsig without Java: BC's HSS public keys in RFC 8708's form (the key in
# an OCTET STRING inside the BIT STRING) import and are written back in RFC 9708's; BC's
# certificates verify (HSS: NULL signature parameters, and for L = 1 a bare LMS signature); the
# signature of BC's SignedData without signed attributes, taken out, verifies over the content
# itself (RFC 9708 section 4) with pkeyutl and fastsig-keytool cms-verify, and not over changed
# content; on OpenSSL 3.5 its
# SignedData with signed attributes verify and a flipped signature bit is refused, while
# openssl cms refuses the ones without (its CMS verifies a digest), saying why.
source "$(dirname "$0")/lib.sh"
fix=$VECTORS/bc
KEYTOOL=${FASTSIG_KEYTOOL:?FASTSIG_KEYTOOL must name the fastsig-keytool program}
need_vectors || { summary bc_vectors; exit 1; }
case $(openssl version) in
    "OpenSSL 3.0."*) v35=0 ;;
    *) v35=1 ;;
esac

# sigvalue DER OUT: the SignerInfo's signature (the SignedData's last OCTET STRING) into OUT
sigvalue() {
    local at
    at=$(openssl asn1parse -inform DER -in "$1" | grep "prim: OCTET STRING" | tail -1 |
         sed -n 's/^ *\([0-9]*\):d=[0-9]* *hl=\([0-9]*\) *l= *\([0-9]*\).*/\1 \2 \3/p')
    set -- "$1" "$2" $at
    [ $# -eq 5 ] && tail -c +$(($3 + $4 + 1)) "$1" | head -c "$5" >"$2"
}
cp "$fix/content.txt" "$WORK/changed.txt"
check_fails "cms-verify of a file that is not CMS: refused" "$KEYTOOL" cms-verify -provider-path \
    "$MODULE_DIR" --in "$fix/content.txt" --CAfile "$fix/hss1-cert.pem"
check_fails "cms-verify of SignedData with signed attributes: sent to openssl cms" "$KEYTOOL" \
    cms-verify -provider-path "$MODULE_DIR" --in "$fix/xmss-attrs.der" --CAfile "$fix/xmss-cert.pem" \
    --content "$fix/content.txt"
said "cms-verify: signed attributes: the error says so" "use openssl cms -verify"
flip_bit "$WORK/changed.txt" 3

for k in hss1 hss2; do # BC's own SubjectPublicKeyInfo: RFC 8708's form
    check "BC $k public key (RFC 8708 form) imports" openssl pkey "${PROV[@]}" -pubin -inform DER \
        -in "$fix/$k-pub.der" -outform DER -out "$WORK/$k-pub.der"
    check_eq "$k: written back in RFC 9708's form (the OCTET STRING header gone)" \
        "$(($(stat -c %s "$fix/$k-pub.der") - $(stat -c %s "$WORK/$k-pub.der")))" 2
    check_eq "$k: the same 60-byte HSS key" "$(tail -c 60 "$WORK/$k-pub.der" | od -An -tx1)" \
        "$(tail -c 60 "$fix/$k-pub.der" | od -An -tx1)"
done
# a wrapper whose length does not cover the rest is no RFC 8708 key: refused, not read as one
cp "$fix/hss1-pub.der" "$WORK/short.der"
printf '\x3b' | dd of="$WORK/short.der" bs=1 seek=21 conv=notrunc 2>/dev/null # 04 3c -> 04 3b
check_fails "an RFC 8708 wrapper of the wrong length is refused" openssl pkey "${PROV[@]}" -pubin \
    -inform DER -in "$WORK/short.der" -noout
check "HSS L = 1 key: 1 level in -text" grep -q "levels: 1 " \
    <(openssl pkey "${PROV[@]}" -pubin -inform DER -in "$fix/hss1-pub.der" -noout -text)

for k in hss1 hss2 xmss xmssmt; do
    cert=$fix/$k-cert.pem
    other=hss1
    [ "$k" = hss1 ] && other=hss2
    check "BC $k certificate verifies" openssl verify "${PROV[@]}" -check_ss_sig -CAfile "$cert" "$cert"
    openssl x509 -in "$cert" -outform DER -out "$WORK/$k-bad.crt"
    flip_bit "$WORK/$k-bad.crt" $(($(stat -c %s "$WORK/$k-bad.crt") - 10)) # in its signature
    check_fails "BC $k certificate: a flipped signature bit is refused" openssl verify "${PROV[@]}" \
        -check_ss_sig -CAfile "$cert" <(openssl x509 -inform DER -in "$WORK/$k-bad.crt")
    check "BC $k certificate: public key" openssl x509 "${PROV[@]}" -in "$cert" -pubkey -noout \
        -out "$WORK/$k-cert-pub.pem"
    check "$k: the signature without signed attributes taken out" sigvalue "$fix/$k-noattr.der" \
        "$WORK/$k.sig"
    verify=(openssl pkeyutl "${PROV[@]}" -verify -rawin -pubin -inkey "$WORK/$k-cert-pub.pem"
            -sigfile "$WORK/$k.sig")
    check "BC $k, no signed attributes: the signature verifies over the content itself" \
        "${verify[@]}" -in "$fix/content.txt"
    check_fails "BC $k, no signed attributes: not over changed content" "${verify[@]}" \
        -in "$WORK/changed.txt"
    kv=("$KEYTOOL" cms-verify -provider-path "$MODULE_DIR" --in "$fix/$k-noattr.der" --CAfile "$cert")
    check "BC $k, no signed attributes: fastsig-keytool cms-verify" "${kv[@]}" --content "$fix/content.txt"
    check_fails "BC $k, no signed attributes: cms-verify refuses changed content" "${kv[@]}" \
        --content "$WORK/changed.txt"
    check_fails "BC $k: cms-verify refuses a signer not under --CAfile" "$KEYTOOL" cms-verify \
        -provider-path "$MODULE_DIR" --in "$fix/$k-noattr.der" --CAfile "$fix/$other-cert.pem" \
        --content "$fix/content.txt"
    cms=(openssl cms "${PROV[@]}" -verify -binary -inform DER -content "$fix/content.txt"
         -CAfile "$cert" -purpose any -out "$WORK/out")
    if [ "$v35" -eq 0 ]; then
        check_fails "BC $k SignedData: refused on OpenSSL 3.0" "${cms[@]}" -in "$fix/$k-attrs.der"
        said "BC $k SignedData on 3.0: the error names OpenSSL 3.5" "OpenSSL 3.5"
        continue
    fi
    check "BC $k SignedData with signed attributes verifies" "${cms[@]}" -in "$fix/$k-attrs.der"
    cp "$fix/$k-attrs.der" "$WORK/$k-bad.der"
    flip_bit "$WORK/$k-bad.der" $(($(stat -c %s "$WORK/$k-bad.der") - 10))
    check_fails "BC $k SignedData: a flipped signature bit is refused" "${cms[@]}" -in "$WORK/$k-bad.der"
    check_fails "BC $k SignedData without signed attributes: refused by openssl cms" "${cms[@]}" \
        -in "$fix/$k-noattr.der"
    said "BC $k without signed attributes: the error says why" "signs the message itself, never a digest"
done
summary bc_vectors
