#!/usr/bin/env bash
# examples.sh EXAMPLES_DIR - the C programs of examples/ as a user builds and
# runs them: fastsig installed (`meson install --destdir` into a scratch
# folder), each program compiled with pkg-config's flags for fastsig and
# libcrypto alone (warnings are errors), the installed module found through
# OPENSSL_MODULES. sign_verify generates an HSS and an XMSS key, saves it,
# signs and verifies, and signs on with the saved key; verify checks raw
# signatures against the public key and the certificate and refuses a changed
# file; firmware_sign makes a detached CMS signature on OpenSSL 3.5 that verify
# --cms accepts (on 3.0 it says that 3.5 is needed, exits 77 and writes
# nothing). Any example failing fails the test.
source "$(dirname "$0")/lib.sh"
EX=${1:?usage: examples.sh EXAMPLES_DIR}
DEST=$WORK/dest
check "meson install --destdir" meson install -C "$MODULE_DIR" --no-rebuild --destdir "$DEST"
modulesdir=${FASTSIG_INSTALL_MODULESDIR:?FASTSIG_INSTALL_MODULESDIR must name the modulesdir}
export OPENSSL_MODULES=$DEST$modulesdir
pc=$(find "$DEST" -name fastsig.pc | head -1)
[ -n "$pc" ] && ok "fastsig.pc installed" || not_ok "fastsig.pc not installed"
prefix=$(pkg-config --variable=prefix "$pc" 2>/dev/null)
# the libcrypto this build uses (3.0 or 3.5): its .pc folder comes from meson
export PKG_CONFIG_PATH=$(dirname "${pc:-/none}"):${FASTSIG_LIBCRYPTO_PCDIR:-}
flags=$(pkg-config --define-variable=prefix="$DEST$prefix" --cflags fastsig)
crypto=$(pkg-config --cflags --libs libcrypto)
rpath=-Wl,-rpath,$(pkg-config --variable=libdir libcrypto)
case $(openssl version) in "OpenSSL 3.0."*) v35=0 ;; *) v35=1 ;; esac

for prog in sign_verify firmware_sign verify; do
    # shellcheck disable=SC2086 # the flags are words
    check "$prog.c builds with pkg-config's flags (-Wall -Wextra -Werror)" cc -Wall -Wextra -Werror \
        "$EX/$prog.c" -o "$WORK/$prog" $flags $crypto "$rpath"
done
check "the header is the installed one" grep -q "$DEST.*/include" <<<"$flags"
run() { "$WORK/$@"; }

cd "$WORK" || exit 1
head -c 5000 /dev/urandom >fw.bin
cp fw.bin changed.bin
flip_bit changed.bin 100
for alg in HSS XMSS; do
    check "$alg: sign_verify generates, saves, signs, verifies" run sign_verify "$alg" "$alg.pem" \
        fw.bin "$alg.sig"
    cp "$WORK/out" "$WORK/prev.out"
    check "$alg: ... prints the key's remaining" grep -q "next index 1, remaining 1023 of 1024" \
        "$WORK/prev.out"
    check "$alg: ... the key file is 0600" test "$(stat -c %a "$alg.pem")" = 600
    check "$alg: ... its state beside it" test -s "$alg.pem.state"
    check "$alg: run again: the saved key signs on" run sign_verify "$alg" "$alg.pem" fw.bin \
        "$alg-2.sig"
    cp "$WORK/out" "$WORK/prev.out"
    check "$alg: ... with the next index" grep -q "next index 2, remaining 1022 of 1024" \
        "$WORK/prev.out"
    check_fails "$alg: an existing signature file is not overwritten" run sign_verify "$alg" \
        "$alg.pem" fw.bin "$alg.sig"
    check "$alg: ... and no index is spent" grep -q "^state: index 2, remaining 1022 of 1024" \
        <(openssl pkey "${PROV[@]}" -in "$alg.pem" -noout -text)
    openssl pkey "${PROV[@]}" -in "$alg.pem" -pubout -out "$alg.pub"
    check "$alg: verify with the public key" run verify "$alg.pub" fw.bin "$alg.sig"
    check_eq "$alg: ... says valid" "$(cat "$WORK/out")" valid
    check "$alg: verify the second signature" run verify "$alg.pub" fw.bin "$alg-2.sig"
    run verify "$alg.pub" changed.bin "$alg.sig" >/dev/null 2>&1
    check_eq "$alg: a changed file is invalid (exit 1)" $? 1
    check "$alg: self-signed certificate" openssl req "${PROV[@]}" -x509 -new -key "$alg.pem" \
        -subj "/CN=$alg firmware signer" -days 30 -out "$alg.crt"
    check "$alg: verify with the certificate" run verify "$alg.crt" fw.bin "$alg.sig"
    if [ "$v35" = 1 ]; then
        check "$alg: firmware_sign (CMS, OpenSSL 3.5)" run firmware_sign "$alg.pem" "$alg.crt" \
            fw.bin "$alg.p7s"
        cp "$WORK/out" "$WORK/prev.out"
        check "$alg: ... one more index spent" grep -q "remaining 1020$" "$WORK/prev.out"
        check "$alg: verify --cms" run verify --cms "$alg.crt" fw.bin "$alg.p7s"
        run verify --cms "$alg.crt" changed.bin "$alg.p7s" >/dev/null 2>&1
        check_eq "$alg: verify --cms: a changed file is invalid (exit 1)" $? 1
        check "$alg: openssl cms -verify accepts the example's signature" openssl cms "${PROV[@]}" \
            -verify -binary -inform DER -in "$alg.p7s" -content fw.bin -CAfile "$alg.crt" \
            -purpose any -out /dev/null
    else
        run firmware_sign "$alg.pem" "$alg.crt" fw.bin "$alg.p7s" >/dev/null 2>"$WORK/fw.err"
        check_eq "$alg: firmware_sign on OpenSSL 3.0 exits 77" $? 77
        check "$alg: ... saying 3.5 is needed" grep -q "needs OpenSSL 3.5 or later" "$WORK/fw.err"
        check "$alg: ... and writes nothing" test ! -e "$alg.p7s"
    fi
done
summary examples
