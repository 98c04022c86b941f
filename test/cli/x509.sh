#!/usr/bin/env bash
# x509.sh - X.509 with fastsig keys through the real openssl binary, as a
# user runs it: a self-signed CA (req -x509 -new), a leaf from a CSR
# (req + x509 -req -CA), x509 -text, verify, and the failures that must
# happen (tampered signature, wrong CA). Runs for every signature algorithm
# the module offers; RW always, XMSS/XMSS^MT/HSS when their adapter is built
# (WOTS+ is one-time: a key cannot sign both its certificate and a leaf).
source "$(dirname "$0")/lib.sh"

# flip_last_byte IN OUT: the DER certificate with its last signature byte changed
flip_last_byte() {
    openssl x509 "${PROV[@]}" -in "$1" -outform DER -out "$WORK/flip.der"
    perl -e 'local $/; open my $f, "<:raw", $ARGV[0] or die; my $d = <$f>;
             substr($d, -1, 1) = chr(ord(substr($d, -1, 1)) ^ 1);
             open my $o, ">:raw", $ARGV[1] or die; print $o $d;' "$WORK/flip.der" "$2"
}

keymgmts=$(openssl list -key-managers "${PROV[@]}" 2>/dev/null)
for alg in RW RW-P1363 XMSS XMSSMT HSS; do
    if ! grep -qw -- "$alg" <<<"$keymgmts"; then
        [ "$alg" = RW ] && not_ok "RW key management not offered by the module"
        echo "skip - $alg not built into this module"
        continue
    fi
    d="$WORK/$alg"
    mkdir -p "$d"
    case $alg in # the OID's long name, as x509 -text prints it
        RW) ln=Rabin-Williams ;;
        RW-P1363) ln=Rabin-Williams-IEEE1363 ;;
        XMSS) ln=id-alg-xmss-hashsig ;;
        XMSSMT) ln=id-alg-xmssmt-hashsig ;;
        HSS) ln=id-alg-hss-lms-hashsig ;;
    esac

    check "$alg: genpkey CA key" genkey "$alg" "$d/ca.key"
    check "$alg: req -x509 -new self-signed CA" \
        openssl req "${PROV[@]}" -x509 -new -key "$d/ca.key" -subj "/CN=fastsig $alg CA" -days 30 \
        -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
        -out "$d/ca.pem"
    openssl x509 "${PROV[@]}" -in "$d/ca.pem" -noout -text >"$WORK/ca.txt" 2>&1
    check "$alg: x509 -text names the signature algorithm" grep -q "Signature Algorithm: $ln\$" "$WORK/ca.txt"
    check "$alg: x509 -text prints the public key" grep -q "$alg Public-Key" "$WORK/ca.txt"
    check "$alg: verify the self-signed CA" openssl verify "${PROV[@]}" -CAfile "$d/ca.pem" "$d/ca.pem"
    # the AlgorithmIdentifier is the bare OID: no NULL parameters anywhere in the certificate
    nulls=$(openssl asn1parse -in "$d/ca.pem" | grep -c 'prim: NULL')
    check_eq "$alg: signature AlgorithmIdentifier has parameters absent" "$nulls" "0"
    check_eq "$alg: certificate public key is the key's" \
        "$(openssl x509 "${PROV[@]}" -in "$d/ca.pem" -noout -pubkey)" \
        "$(openssl pkey "${PROV[@]}" -in "$d/ca.key" -pubout)"

    check "$alg: genpkey leaf key" genkey "$alg" "$d/leaf.key"
    check "$alg: req -new CSR" openssl req "${PROV[@]}" -new -key "$d/leaf.key" \
        -subj "/CN=fastsig $alg leaf" -out "$d/leaf.csr"
    check "$alg: req -verify the CSR" openssl req "${PROV[@]}" -verify -noout -in "$d/leaf.csr"
    check "$alg: x509 -req -CA signs the leaf" openssl x509 "${PROV[@]}" -req -in "$d/leaf.csr" \
        -CA "$d/ca.pem" -CAkey "$d/ca.key" -CAcreateserial -days 10 -out "$d/leaf.pem"
    check "$alg: verify the leaf against the CA" \
        openssl verify "${PROV[@]}" -CAfile "$d/ca.pem" "$d/leaf.pem"
    check "$alg: leaf x509 -text" openssl x509 "${PROV[@]}" -in "$d/leaf.pem" -noout -text

    flip_last_byte "$d/leaf.pem" "$WORK/bad.der"
    check_fails "$alg: verify refuses a tampered leaf signature" \
        openssl verify "${PROV[@]}" -CAfile "$d/ca.pem" "$WORK/bad.der"
    check "$alg: second CA" genkey "$alg" "$d/other.key"
    check "$alg: second CA certificate" openssl req "${PROV[@]}" -x509 -new -key "$d/other.key" \
        -subj "/CN=fastsig $alg CA" -days 30 -out "$d/other.pem"
    check_fails "$alg: verify refuses the leaf under another CA with the same name" \
        openssl verify "${PROV[@]}" -CAfile "$d/other.pem" "$d/leaf.pem"
    check_fails "$alg: verify without the provider cannot accept it" \
        openssl verify -CAfile "$d/ca.pem" "$d/leaf.pem"
done

summary x509
