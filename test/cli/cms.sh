#!/usr/bin/env bash
# cms.sh - CMS (openssl cms -sign / -verify) with fastsig keys, as firmware and
# software signing uses it (NIST SP 800-208, CNSA 2.0): for XMSS, XMSS^MT, HSS, RW
# and RW-P1363, a self-signed certificate signs a file with and without signed
# attributes, detached and embedded; cms -verify accepts each signature against
# the certificate and refuses a changed file; the SignerInfo names the
# algorithm's OID with absent parameters; a stateful key spends one index per
# signature. Without signed attributes OpenSSL's CMS hands the signer the
# content's digest (RFC 9708 signs the content itself): the hash-based keys
# refuse it before an index is spent, saying to keep the signed attributes.
# OpenSSL 3.0's CMS cannot sign with a provider's key (it has no way to ask a
# provider for the SignerInfo's signatureAlgorithm, and signs the signed
# attributes through a digest the hash-based schemes do not take): there the
# test checks that cms -sign fails, before an index is spent, with an error
# naming OpenSSL 3.5, not with a broken file.
source "$(dirname "$0")/lib.sh"

case $(openssl version) in
    "OpenSSL 3.0."*) cms_signs=0 ;;
    *) cms_signs=1 ;;
esac

head -c 70000 /dev/urandom >"$WORK/firmware.bin"
cp "$WORK/firmware.bin" "$WORK/changed.bin"
flip_bit "$WORK/changed.bin" 4096 # flipped: a byte set to a value could already hold it

for alg in XMSS XMSSMT HSS RW RW-P1363; do
    d="$WORK/$alg"
    mkdir -p "$d"
    check "$alg: genpkey" genkey "$alg" "$d/key.pem"
    check "$alg: self-signed signer certificate" openssl req "${PROV[@]}" -x509 -new \
        -key "$d/key.pem" -subj "/CN=fastsig $alg firmware signer" -days 30 -out "$d/cert.pem"
    if [ "$cms_signs" -eq 0 ]; then
        before=$(remaining "$d/key.pem")
        for attrs in "" -noattr; do
            check_fails "$alg: cms -sign $attrs refused on OpenSSL 3.0" openssl cms "${PROV[@]}" \
                -sign -binary -md sha256 $attrs -in "$WORK/firmware.bin" -signer "$d/cert.pem" \
                -inkey "$d/key.pem" -outform DER -out "$d/refused.der"
            [ -z "$before" ] && continue # RW, RW-P1363: errors of their own
            cp "$WORK/err" "$WORK/prev.err"
            check "$alg: cms -sign $attrs: the error names OpenSSL 3.5" grep -q "OpenSSL 3.5" \
                "$WORK/prev.err"
        done
        [ -n "$before" ] && check_eq "$alg: no index spent on 3.0" "$(remaining "$d/key.pem")" "$before"
        continue
    fi
    case $alg in # the OID, as cms -print names it
        XMSS) oid="id-alg-xmss-hashsig (1.3.6.1.5.5.7.6.34)" ;;
        XMSSMT) oid="id-alg-xmssmt-hashsig (1.3.6.1.5.5.7.6.35)" ;;
        HSS) oid="id-alg-hss-lms-hashsig (1.2.840.113549.1.9.16.3.17)" ;;
        RW) oid="Rabin-Williams (2.25.77497230020247565797983039438780865004.2)" ;;
        RW-P1363) oid="Rabin-Williams-IEEE1363 (2.25.77497230020247565797983039438780865004.2.1)" ;;
    esac
    for attrs in signed-attributes no-attributes; do
        for layout in detached embedded; do
            name="$alg, $attrs, $layout"
            sig="$d/$attrs-$layout.der"
            opts=()
            [ "$attrs" = no-attributes ] && opts+=(-noattr)
            [ "$layout" = embedded ] && opts+=(-nodetach)
            if [ "$alg" != RW-P1363 ] && [ "$alg" != RW ] && [ "$attrs" = no-attributes ]; then
                # OpenSSL's CMS hands the signer the content's digest, where RFC 9708 signs the
                # content itself: refused before an index is spent, with the reason
                before=$(remaining "$d/key.pem")
                check_fails "$name: cms -sign refused" openssl cms "${PROV[@]}" -sign -binary \
                    -md sha256 -in "$WORK/firmware.bin" -signer "$d/cert.pem" -inkey "$d/key.pem" \
                    "${opts[@]}" -outform DER -out "$sig"
                cp "$WORK/err" "$WORK/prev.err"
                check "$name: the error says to keep the signed attributes" \
                    grep -q "keep the signed attributes" "$WORK/prev.err"
                check_eq "$name: no index spent" "$(remaining "$d/key.pem")" "$before"
                check_eq "$name: no output" "$(cat "$sig" 2>/dev/null | wc -c)" 0
                continue
            fi
            if [ "$alg" = RW ] && [ "$attrs" = no-attributes ]; then
                # without signed attributes CMS hands the signer the content's digest, and
                # RW signs messages whole with its own hash: refused, with the reason
                check_fails "$name: cms -sign refused" openssl cms "${PROV[@]}" -sign -binary \
                    -md sha256 -in "$WORK/firmware.bin" -signer "$d/cert.pem" -inkey "$d/key.pem" \
                    "${opts[@]}" -outform DER -out "$sig"
                cp "$WORK/err" "$WORK/prev.err"
                check "$name: the error names the refused digest" grep -q "digest .* refused" \
                    "$WORK/prev.err"
                continue
            fi
            before=$(remaining "$d/key.pem")
            check "$name: cms -sign" openssl cms "${PROV[@]}" -sign -binary -md sha256 \
                -in "$WORK/firmware.bin" -signer "$d/cert.pem" -inkey "$d/key.pem" "${opts[@]}" \
                -outform DER -out "$sig"
            if [ -n "$before" ]; then
                check_eq "$name: one index spent" "$(remaining "$d/key.pem")" "$((before - 1))"
            fi
            # the SignerInfo's signatureAlgorithm: the key's OID, parameters absent
            openssl cms "${PROV[@]}" -cmsout -print -inform DER -in "$sig" >"$d/print.txt" 2>&1
            sigalg=$(sed -n '/signatureAlgorithm:/,/parameter:/p' "$d/print.txt")
            check "$name: signatureAlgorithm is $oid" grep -qF "algorithm: $oid" <<<"$sigalg"
            check "$name: parameters absent" grep -q "parameter: <ABSENT>" <<<"$sigalg"
            content=(-content "$WORK/firmware.bin")
            [ "$layout" = embedded ] && content=()
            check "$name: cms -verify" openssl cms "${PROV[@]}" -verify -binary -inform DER \
                -in "$sig" "${content[@]}" -CAfile "$d/cert.pem" -purpose any -out "$d/out.bin"
            check_eq "$name: verified content is the file" "$(cmp -s "$d/out.bin" \
                "$WORK/firmware.bin" && echo same)" same
            if [ "$layout" = detached ]; then
                check_fails "$name: a changed file is refused" openssl cms "${PROV[@]}" -verify \
                    -binary -inform DER -in "$sig" -content "$WORK/changed.bin" \
                    -CAfile "$d/cert.pem" -purpose any -out "$d/bad.bin"
            fi
        done
    done
done
# What OpenSSL 3.5 signed (test/vectors/cms, detached): RW-P1363 verifies on either version, XMSS
# on 3.5 only (3.0 verifies CMS through a digest, and XMSS signs the signed attributes whole).
fix=$VECTORS/cms
if need_vectors; then
    for f in rw-p1363-attrs rw-p1363-noattr xmss-attrs; do
        signer=$fix/${f%-*}-signer.pem
        verify=(openssl cms "${PROV[@]}" -verify -binary -inform DER -in "$fix/$f.der"
                -content "$fix/content.txt" -CAfile "$signer" -purpose any -out "$WORK/fix.out")
        if [ "$cms_signs" -eq 0 ] && [ "${f%%-*}" = xmss ]; then
            check_fails "3.5's $f.der: not verifiable on OpenSSL 3.0" "${verify[@]}"
        else
            check "3.5's $f.der verifies" "${verify[@]}"
            check_eq "3.5's $f.der: content" "$(cat "$WORK/fix.out")" "$(cat "$fix/content.txt")"
        fi
    done
fi
summary cms
