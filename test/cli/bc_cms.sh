#!/usr/bin/env bash
# bc_cms.sh - CMS SignedData between fastsig (openssl cms) and Bouncy Castle 1.72, the
# independent peer: test/cli/BcCms.java, compiled here with javac and run with Debian's
# libbcprov-java / libbcpkix-java jars (scripts/setup.sh installs them with a headless JDK).
# For HSS with one and two levels, XMSS and XMSS^MT:
# - BC -> fastsig: BC's certificate (for HSS BC's own RFC 8708 form, NULL parameters, and for
#   L = 1 a bare LMS signature) verifies; on OpenSSL 3.5, BC's SignedData with signed
#   attributes, detached and attached, verify, and each tampered copy is refused; without signed
#   attributes (BC signs the content itself, RFC 9708 section 4) fastsig refuses them, saying why.
# - fastsig -> BC: on 3.5, fastsig's SignedData with signed attributes verify in BC, tampered
#   ones do not; -noattr is refused before an index is spent. On OpenSSL 3.0 every cms -sign is
#   refused before an index is spent, naming what works (3.5, signed attributes).
# - Without signed attributes, on either version: fastsig-keytool cms-sign / cms-verify (the
#   signature over the content itself) and BC, both ways, tampered copies refused.
source "$(dirname "$0")/lib.sh"
JAVA_SRC=${1:?usage: bc_cms.sh BcCms.java}
KEYTOOL=${FASTSIG_KEYTOOL:?FASTSIG_KEYTOOL must name the fastsig-keytool program}
kt() { "$KEYTOOL" "$1" -provider-path "$MODULE_DIR" "${@:2}"; }
JARS=${FASTSIG_BC_JARS:-/usr/share/java/bcprov.jar:/usr/share/java/bcpkix.jar:/usr/share/java/bcutil.jar}

case $(openssl version) in
    "OpenSSL 3.0."*) v35=0 ;;
    *) v35=1 ;;
esac

bc() { java -cp "$WORK/classes:$JARS" BcCms "$@"; }
# sig_flip FILE: a copy of FILE with a bit flipped inside the signature value (the
# SignerInfo's last field, so the last bytes of a SignedData without unsigned attributes)
sig_flip() {
    cp "$1" "$2"
    flip_bit "$2" $(($(stat -c %s "$2") - 10))
}

missing=()
command -v javac >/dev/null || missing+=("javac (default-jdk-headless)")
for j in ${JARS//:/ }; do [ -f "$j" ] || missing+=("$j (libbcprov-java, libbcpkix-java)"); done
if [ ${#missing[@]} -ne 0 ]; then
    not_ok "Bouncy Castle peer: missing ${missing[*]} (scripts/test.sh installs them)"
    summary bc_cms
    exit 1
fi
check "javac BcCms.java" javac -d "$WORK/classes" -cp "$JARS" "$JAVA_SRC"

head -c 70000 /dev/urandom >"$WORK/content"
cp "$WORK/content" "$WORK/changed"
flip_bit "$WORK/changed" 4096

# ---- Bouncy Castle signs, fastsig verifies ----
for kind in HSS1 HSS2 XMSS XMSSMT; do
    d=$WORK/bc-$kind
    mkdir -p "$d"
    check "BC $kind: key, certificate, 4 SignedData" bc sign "$kind" "$d" "$WORK/content"
    check "BC $kind: its self-signed certificate verifies in fastsig" openssl verify "${PROV[@]}" -check_ss_sig \
        -CAfile "$d/cert.pem" "$d/cert.pem"
    for f in attrs-detached attrs-attached noattr-detached noattr-attached; do
        content=(-content "$WORK/content")
        [ "${f#*-}" = attached ] && content=()
        verify=(openssl cms "${PROV[@]}" -verify -binary -inform DER "${content[@]}"
                -CAfile "$d/cert.pem" -purpose any -out "$d/out")
        if [ "$v35" -eq 0 ]; then
            check_fails "BC $kind $f: refused on OpenSSL 3.0" "${verify[@]}" -in "$d/$f.der"
            said "BC $kind $f: the error names OpenSSL 3.5" "OpenSSL 3.5"
            continue
        fi
        if [ "${f%%-*}" = noattr ]; then
            kc=()
            [ "${f#*-}" = detached ] && kc=(--content "$WORK/content")
            check "BC $kind $f: fastsig-keytool cms-verify" kt cms-verify --in "$d/$f.der" \
                --CAfile "$d/cert.pem" "${kc[@]}" --out "$d/kt.out"
            check "BC $kind $f: cms-verify writes the content" cmp -s "$d/kt.out" "$WORK/content"
            sig_flip "$d/$f.der" "$d/$f.bad.der"
            check_fails "BC $kind $f: cms-verify refuses a flipped signature bit" kt cms-verify \
                --in "$d/$f.bad.der" --CAfile "$d/cert.pem" "${kc[@]}"
            if [ "${f#*-}" = detached ]; then
                check_fails "BC $kind $f: cms-verify refuses changed content" kt cms-verify \
                    --in "$d/$f.der" --CAfile "$d/cert.pem" --content "$WORK/changed"
            fi
        fi
        if [ "${f%%-*}" = noattr ]; then
            check_fails "BC $kind $f: refused by openssl cms (it verifies a digest)" "${verify[@]}" \
                -in "$d/$f.der"
            said "BC $kind $f: the error says why" "signs the message itself, never a digest"
            continue
        fi
        check "BC $kind $f: verifies" "${verify[@]}" -in "$d/$f.der"
        check "BC $kind $f: the content comes out" cmp -s "$d/out" "$WORK/content"
        sig_flip "$d/$f.der" "$d/$f.bad.der"
        check_fails "BC $kind $f: a flipped signature bit is refused" "${verify[@]}" \
            -in "$d/$f.bad.der"
        if [ "${f#*-}" = detached ]; then
            check_fails "BC $kind $f: changed content is refused" openssl cms "${PROV[@]}" -verify \
                -binary -inform DER -in "$d/$f.der" -content "$WORK/changed" -CAfile "$d/cert.pem" \
                -purpose any -out "$d/out"
        fi
    done
done

# ---- fastsig signs, Bouncy Castle verifies ----
for kind in HSS1 HSS2 XMSS XMSSMT; do
    d=$WORK/fs-$kind
    mkdir -p "$d"
    case $kind in
        HSS1) check "fastsig $kind: genpkey" openssl genpkey "${PROV[@]}" -algorithm HSS \
                  -pkeyopt param:LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4 -pkeyopt "state:$d/key.state" \
                  -out "$d/key.pem" ;;
        HSS2) check "fastsig $kind: genpkey" genkey HSS "$d/key.pem" ;;
        *) check "fastsig $kind: genpkey" genkey "$kind" "$d/key.pem" ;;
    esac
    check "fastsig $kind: self-signed certificate" openssl req "${PROV[@]}" -x509 -new \
        -key "$d/key.pem" -subj "/CN=fastsig $kind signer" -days 30 -out "$d/cert.pem"
    sign=(openssl cms "${PROV[@]}" -sign -binary -md sha256 -in "$WORK/content"
          -signer "$d/cert.pem" -inkey "$d/key.pem" -outform DER)
    before=$(remaining "$d/key.pem")
    check_fails "fastsig $kind: cms -sign -noattr refused" "${sign[@]}" -noattr -out "$d/noattr.der"
    if [ "$v35" -eq 1 ]; then
        said "fastsig $kind -noattr: the error says why" "keep the signed attributes"
    else
        said "fastsig $kind -noattr: the error names OpenSSL 3.5" "OpenSSL 3.5"
    fi
    check_eq "fastsig $kind -noattr: no index spent" "$(remaining "$d/key.pem")" "$before"
    check_eq "fastsig $kind -noattr: no output" "$(cat "$d/noattr.der" 2>/dev/null | wc -c)" 0
    check_fails "fastsig $kind: cms-sign with another key's certificate refused" kt cms-sign \
        --in "$WORK/content" --signer "$WORK/bc-$kind/cert.pem" --inkey "$d/key.pem" --out "$d/x.der"
    check_fails "fastsig $kind: cms-sign to a missing folder refused" kt cms-sign \
        --in "$WORK/content" --signer "$d/cert.pem" --inkey "$d/key.pem" --out "$d/none/x.der"
    check_eq "fastsig $kind: neither spent an index" "$(remaining "$d/key.pem")" "$before"
    ks=(kt cms-sign --in "$WORK/content" --signer "$d/cert.pem" --inkey "$d/key.pem")
    check "fastsig $kind: fastsig-keytool cms-sign, detached" "${ks[@]}" --out "$d/noattr-detached.der"
    check "fastsig $kind: fastsig-keytool cms-sign, attached" "${ks[@]}" --attached \
        --out "$d/noattr-attached.der"
    check_eq "fastsig $kind: cms-sign spent one index each" "$(remaining "$d/key.pem")" "$((before - 2))"
    check "fastsig $kind: cms-verify of its own" kt cms-verify --in "$d/noattr-detached.der" \
        --content "$WORK/content" --CAfile "$d/cert.pem"
    sig_flip "$d/noattr-detached.der" "$d/noattr-bad-detached.der"
    sig_flip "$d/noattr-attached.der" "$d/noattr-bad-attached.der"
    bc verify "$d/cert.pem" "$WORK/content" "$d"/noattr-detached.der "$d"/noattr-attached.der \
        "$d"/noattr-bad-detached.der "$d"/noattr-bad-attached.der >"$d/bc.txt" 2>"$d/bc.err"
    bc verify "$d/cert.pem" "$WORK/changed" "$d"/noattr-detached.der >>"$d/bc.txt" 2>>"$d/bc.err"
    check_eq "fastsig $kind cms-sign -> BC: both verify, every tampered one refused" \
        "$(awk '{print $2}' "$d/bc.txt" | tr '\n' ' ')" "ok ok bad bad bad "
    before=$((before - 2))
    if [ "$v35" -eq 0 ]; then
        check_fails "fastsig $kind: cms -sign refused on OpenSSL 3.0" "${sign[@]}" -out "$d/a.der"
        said "fastsig $kind: the error names OpenSSL 3.5" "OpenSSL 3.5"
        check_eq "fastsig $kind: no index spent" "$(remaining "$d/key.pem")" "$before"
        continue
    fi
    check "fastsig $kind: cms -sign, detached" "${sign[@]}" -out "$d/attrs-detached.der"
    check "fastsig $kind: cms -sign, attached" "${sign[@]}" -nodetach -out "$d/attrs-attached.der"
    check_eq "fastsig $kind: two indices spent" "$(remaining "$d/key.pem")" "$((before - 2))"
    sig_flip "$d/attrs-detached.der" "$d/bad-detached.der"
    sig_flip "$d/attrs-attached.der" "$d/bad-attached.der"
    bc verify "$d/cert.pem" "$WORK/content" "$d"/attrs-detached.der "$d"/attrs-attached.der \
        "$d"/bad-detached.der "$d"/bad-attached.der >"$d/bc.txt" 2>"$d/bc.err"
    bc verify "$d/cert.pem" "$WORK/changed" "$d"/attrs-detached.der >>"$d/bc.txt" 2>>"$d/bc.err"
    check_eq "fastsig $kind -> BC: both verify, every tampered one refused" \
        "$(awk '{print $2}' "$d/bc.txt" | tr '\n' ' ')" "ok ok bad bad bad "
done
summary bc_cms
