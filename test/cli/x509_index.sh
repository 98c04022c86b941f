#!/usr/bin/env bash
# x509_index.sh - what certificates cost a stateful key, and what a digest
# option does to them (README, "XMSS and XMSS^MT"): a CSR (req -new) is
# signed by the key and spends one index, as req -x509 and x509 -req -CA do;
# -sha256 / -sha384 on req and x509 is dropped by openssl itself (the key
# type takes no digest, as for Ed25519: fastsig never sees it), so the
# certificate is signed whole under the key's own OID and verifies, one index
# each; dgst -sha256 -sign, where the digest reaches fastsig, is refused
# before an index is spent. For XMSS and HSS, on OpenSSL 3.0 and 3.5 alike.
source "$(dirname "$0")/lib.sh"

index() { openssl pkey "${PROV[@]}" -in "$1" -noout -text | sed -n 's/^state: index \([0-9]*\),.*/\1/p'; }
# sigalg CERT: the certificate's outer signatureAlgorithm OID
sigalg() { openssl asn1parse -in "$1" | awk '/OBJECT/ {o = $NF} END {print substr(o, 2)}'; }

for alg in XMSS HSS; do
    d="$WORK/$alg"
    mkdir -p "$d"
    case $alg in XMSS) oid=1.3.6.1.5.5.7.6.34 ;; HSS) oid=1.2.840.113549.1.9.16.3.17 ;; esac
    check "$alg: genpkey" genkey "$alg" "$d/k.pem"
    check "$alg: req -new (a CSR)" openssl req "${PROV[@]}" -new -key "$d/k.pem" -subj /CN=leaf \
        -out "$d/k.csr"
    check_eq "$alg: ... spends one index" "$(index "$d/k.pem")" 1
    check "$alg: req -x509 -new -sha256" openssl req "${PROV[@]}" -x509 -new -sha256 \
        -key "$d/k.pem" -subj /CN=ca -days 30 -out "$d/ca.pem"
    check_eq "$alg: ... one index" "$(index "$d/k.pem")" 2
    check_eq "$alg: ... the digest dropped: signed under the key's OID" "$(sigalg "$d/ca.pem")" "$oid"
    check "$alg: ... and it verifies" openssl verify "${PROV[@]}" -CAfile "$d/ca.pem" "$d/ca.pem"
    check "$alg: x509 -req -CA -sha384" openssl x509 "${PROV[@]}" -req -in "$d/k.csr" \
        -CA "$d/ca.pem" -CAkey "$d/k.pem" -sha384 -days 30 -out "$d/leaf.pem"
    check_eq "$alg: ... one index" "$(index "$d/k.pem")" 3
    check_eq "$alg: ... signed under the key's OID" "$(sigalg "$d/leaf.pem")" "$oid"
    check "$alg: ... and it verifies" openssl verify "${PROV[@]}" -CAfile "$d/ca.pem" "$d/leaf.pem"
    check_fails "$alg: dgst -sha256 -sign is refused" openssl dgst "${PROV[@]}" -sha256 \
        -sign "$d/k.pem" -out "$d/d.sig" "$d/k.csr"
    cp "$WORK/err" "$WORK/prev.err"
    check "$alg: ... saying why" grep -q "signs the message itself: no digest" "$WORK/prev.err"
    check_eq "$alg: ... no index spent" "$(index "$d/k.pem")" 3
done
summary x509_index
