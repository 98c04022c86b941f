#!/usr/bin/env bash
# install.sh - `meson install` into a scratch DESTDIR: the module lands in
# libcrypto's module directory, and the public headers, library and
# fastsig.pc let a C program use the TZ core through pkg-config.
source "$(dirname "$0")/lib.sh"
DEST=$WORK/dest
check "meson install --destdir" meson install -C "$MODULE_DIR" --no-rebuild --destdir "$DEST"
modulesdir=$(pkg-config --variable=modulesdir libcrypto)
[ -f "$DEST$modulesdir/fastsig.so" ] && ok "fastsig.so in libcrypto's modulesdir ($modulesdir)" ||
    not_ok "fastsig.so not at $DEST$modulesdir"
printf 'abc' >"$WORK/abc"
want=00000000000000000000000001cfbf620000000000000000000000000146e6f100000000000000000000000000d91897000000000000000000000000008ebe73
check_eq "installed module answers -provider fastsig" \
    "$(OPENSSL_MODULES="$DEST$modulesdir" openssl dgst -provider fastsig -TZ -r "$WORK/abc")" "$want *$WORK/abc"

pc=$(find "$DEST" -name fastsig.pc | head -1)
if [ -n "$pc" ]; then
    ok "fastsig.pc installed"
    prefix=$(pkg-config --variable=prefix "$pc")
    flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --define-variable=prefix="$DEST$prefix" \
        --cflags --libs fastsig)
    cat >"$WORK/use_tz.c" <<'C'
#include <stdio.h>
#include <fastsig/tz.h>
#include <fastsig/fastsig_err.h>
int main(void)
{
    unsigned char a[64], b[64], ab[128], c[64], back[64];
    tz_hash("hello ", 6, ab);
    tz_hash("world", 5, ab + 64);
    tz_hash("hello world", 11, c);
    if (tz_validate(c, ab, 2) != FASTSIG_OK) return 1;
    if (tz_subtract_right(c, ab + 64, back) != FASTSIG_OK) return 2;
    for (int i = 0; i < 64; i++) printf("%02x", c[i]);
    printf("\n");
    (void)a; (void)b;
    return 0;
}
C
    check "a C program builds against the installed headers and library" \
        cc -I"$DEST$prefix/include" "$WORK/use_tz.c" -o "$WORK/use_tz" $flags
    check_eq "and computes H(hello world) from the parts" "$("$WORK/use_tz")" \
        "$(openssl dgst -provider-path "$MODULE_DIR" -provider fastsig -TZ -r <(printf 'hello world') | cut -d' ' -f1)"
else
    not_ok "fastsig.pc not installed"
fi
summary install
