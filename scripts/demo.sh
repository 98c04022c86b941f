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

echo "demo finished; files are in $DEMO"
