#!/usr/bin/env bash
# install.sh - `meson install` into a scratch DESTDIR: the module lands in
# the build's module directory (libcrypto's by default), only the public headers (include/fastsig/)
# are installed, and they, the library and fastsig.pc let a C program use the
# TZ core through pkg-config; the manual pages land in the mandir.
source "$(dirname "$0")/lib.sh"
DEST=$WORK/dest
check "meson install --destdir" meson install -C "$MODULE_DIR" --no-rebuild --destdir "$DEST"
# the build's own modulesdir: the libcrypto it was configured against (3.0 or 3.5), or -Dmodulesdir
modulesdir=${FASTSIG_INSTALL_MODULESDIR:?FASTSIG_INSTALL_MODULESDIR must name the modulesdir of the build}
[ -f "$DEST$modulesdir/fastsig.so" ] && ok "fastsig.so in the build's modulesdir ($modulesdir)" ||
    not_ok "fastsig.so not at $DEST$modulesdir"
printf 'abc' >"$WORK/abc"
want=00000000000000000000000001cfbf620000000000000000000000000146e6f100000000000000000000000000d91897000000000000000000000000008ebe73
check_eq "installed module answers -provider fastsig" \
    "$(OPENSSL_MODULES="$DEST$modulesdir" openssl dgst -provider fastsig -TZ -r "$WORK/abc")" "$want *$WORK/abc"

# Exactly the public API lands in include/fastsig: no header of the cores' internals.
incdir=$(find "$DEST" -type d -path '*/include/fastsig' | head -1)
check_eq "installed headers are exactly the public ones" \
    "$(cd "${incdir:-$DEST/none}" 2>/dev/null && ls | tr '\n' ' ')" \
    "fastsig_err.h gf127.h provider.h sl2.h tz.h "
check_eq "no other header is installed anywhere" \
    "$(find "$DEST" -name '*.h' ! -path '*/include/fastsig/*' | wc -l)" 0
for internal in wots_chain.h wotsp_scheme.h tree.h adrs.h params.h xmss.h hash.h keccak.h rw.h statefile.h; do
    check "internal header $internal is not installed" test -z "$(find "$DEST" -name "$internal")"
done

# The manual pages of doc/man, in the build's mandir.
for page in man1/fastsig-keytool.1 man1/tzsum.1 man7/fastsig.7; do
    check "manual page $page installed" test -n "$(find "$DEST" -path "*/share/man/$page")"
done

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
    check "a C program builds with pkg-config's flags alone" \
        cc "$WORK/use_tz.c" -o "$WORK/use_tz" $flags
    check_eq "and computes H(hello world) from the parts" "$("$WORK/use_tz")" \
        "$(openssl dgst -provider-path "$MODULE_DIR" -provider fastsig -TZ -r <(printf 'hello world') | cut -d' ' -f1)"
else
    not_ok "fastsig.pc not installed"
fi
summary install
