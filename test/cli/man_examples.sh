#!/usr/bin/env bash
# man_examples.sh MAN_DIR - the C fragment of each manual page's EXAMPLES (the
# `.Bd -literal` block after "From C"), as a reader would paste it: wrapped in
# a main() that loads the providers and declares the names a fragment takes as
# given (msg, msglen; TZ's h_a, b, blen), its state paths moved to the scratch
# folder, compiled with -Wall -Werror against the build's libcrypto and run.
# A fragment fails when it does not build or when it reaches its
# ERR_print_errors_fp() (a refused parameter name, type or value); the TZ one
# must also give the digest of "hello world" that `openssl dgst -TZ` gives.
source "$(dirname "$0")/lib.sh"
MAN=${1:?usage: man_examples.sh MAN_DIR}
export PKG_CONFIG_PATH=${FASTSIG_LIBCRYPTO_PCDIR:-}
crypto=$(pkg-config --cflags --libs libcrypto)
rpath=-Wl,-rpath,$(pkg-config --variable=libdir libcrypto)

# fragment PAGE: the C block of PAGE's EXAMPLES, state paths under $WORK
fragment() {
    awk '/^From C/ { want = 1; next }
         want && /^\.Bd -literal/ { inside = 1; next }
         inside && /^\.Ed/ { exit }
         inside { print }' "$1" | sed "s#\"/var/lib/[^\"]*/\([^/\"]*\)\"#\"$WORK/\1\"#"
}

# program PAGE: the fragment inside a main() that loads the providers
program() {
    cat <<'C'
#include <stdint.h>
#include <stdio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
static int failed; /* the fragment reached its error branch */
#define ERR_print_errors_fp(f) (failed = 1, ERR_print_errors_fp(f))
int main(int argc, char **argv)
{
    const unsigned char *msg = (const unsigned char *)"hello world";
    size_t msglen = 11, hl = 64;
    unsigned char h_a[64];
    const char *b = "world";
    size_t blen = 5;
    (void)argc, (void)msg, (void)msglen, (void)b, (void)blen;
    if (!OSSL_PROVIDER_set_default_search_path(NULL, argv[1])
        || OSSL_PROVIDER_load(NULL, "fastsig") == NULL || OSSL_PROVIDER_load(NULL, "default") == NULL
        || !EVP_Q_digest(NULL, "TZ", NULL, "hello ", 6, h_a, &hl))
        return 2;
    {
C
    fragment "$1"
    if grep -q '^EVP_MD \*tz' "$1"; then
        echo 'for (unsigned i = 0; i < outlen; i++) {'
        echo '    printf("%02x", out[i]);'
        echo '}'
        echo 'printf("\n");'
    fi
    echo '    }'
    echo '    return failed;'
    echo '}'
}

cd "$WORK" || exit 1
pages=0
for page in "$MAN"/*.[1-9]; do
    grep -q '^From C' "$page" || continue
    pages=$((pages + 1))
    name=$(basename "$page")
    program "$page" >"$name.c"
    # shellcheck disable=SC2086 # the flags are words
    check "$name: its C example builds (-Wall -Werror)" cc -Wall -Werror -x c "$name.c" -o "$name.bin" \
        $crypto "$rpath"
    check "$name: its C example runs without reaching its error branch" "./$name.bin" "$MODULE_DIR"
    if grep -q '^EVP_MD \*tz' "$page"; then
        check_eq "$name: its C example continues H(hello ) into H(hello world)" "$(cat "$WORK/out")" \
            "$(printf 'hello world' | openssl dgst "${PROV[@]}" -TZ -r | cut -d' ' -f1)"
    fi
done
check "C examples found in the pages ($pages)" test "$pages" -ge 5
summary man_examples
