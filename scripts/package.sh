#!/usr/bin/env bash
# package.sh - the Debian package step of test.sh; runs alone too (as root, on Debian 12):
#   1. builds the packages from this tree (dpkg-buildpackage -b in a scratch copy under
#      build-deb/, nocheck: test.sh has run the suites) and lints them (no lintian error);
#   2. installs them with `apt-get install ./...deb`;
#   3. runs the CLI flows against the installed module with no -provider-path: keygen, sign,
#      verify, a self-signed X.509 certificate and `openssl verify`, with XMSS and HSS keys,
#      through `-provider fastsig`, the shipped snippet (OPENSSL_CONF) and the README's
#      system-wide .include; fastsig-keytool, tzsum, the man pages, fastsig.pc;
#   4. purges them and checks that nothing is left behind but the user's state.
# Prints "package: N passed, N failed" last. Not root, or no dpkg/apt: skipped with a message,
# and counted as one failure under CI=true.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
set +e
OUT=$ROOT/build-deb
LOG=$OUT/package.log
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
not_ok() { fail=$((fail + 1)); echo "FAIL - $*"; }
# check WHAT CMD...: the command's output goes to the log
check() {
    local what=$1
    shift
    if "$@" >>"$LOG" 2>&1; then ok "$what"; else not_ok "$what (log: $LOG)"; fi
}
check_eq() { # WHAT GOT WANT
    if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1: got '$2', want '$3'"; fi
}
finish() {
    echo "package: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
}

if [ "$(id -u)" -ne 0 ] || ! command -v dpkg >/dev/null || ! command -v apt-get >/dev/null; then
    echo "package: skipped: building, installing and purging the Debian packages needs root on a"
    echo "         dpkg/apt system (Debian 12); run scripts/package.sh as root there"
    [ "${CI:-}" = true ] && fail=1
    finish
fi
rm -rf "$OUT"
mkdir -p "$OUT"
: >"$LOG"
start=$SECONDS
# apt-get waits for a dpkg lock another session holds (5 min), rather than failing at once
APT=(env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -y -qq)
RT=openssl-provider-fastsig
DEV=libfastsig-dev
fs_install_missing dpkg-dev debhelper lintian >>"$LOG" 2>&1 ||
    not_ok "installing dpkg-dev, debhelper and lintian (log: $LOG)"

# 1. Build from a copy of the tree (the files git knows, committed or not), so that the
# build's debian/ and obj-*/ folders and the .deb files stay out of the work tree.
version=$(dpkg-parsechangelog -l debian/changelog -S Version)
src=$OUT/fastsig-$version
mkdir -p "$src"
if git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files -z -co --exclude-standard | xargs -0 cp --parents -t "$src"
else
    tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C "$src"
fi
# Build-Depends (apt-get build-dep reads debian/control of the copy)
(cd "$src" && { dpkg-checkbuilddeps >>"$LOG" 2>&1 ||
    { "${APT[@]}" update && "${APT[@]}" build-dep ./; } >>"$LOG" 2>&1; })
check "Build-Depends satisfied" bash -c "cd '$src' && dpkg-checkbuilddeps"
t0=$SECONDS
check "dpkg-buildpackage -us -uc -b" bash -c "cd '$src' &&
    DEB_BUILD_OPTIONS='${DEB_BUILD_OPTIONS:-nocheck parallel=$(nproc)}' dpkg-buildpackage -us -uc -b"
build_secs=$((SECONDS - t0))
echo "   (package build: $build_secs s)"
rt_deb=$OUT/${RT}_${version}_$(dpkg --print-architecture).deb
dev_deb=$OUT/${DEV}_${version}_$(dpkg --print-architecture).deb
rm -rf "$src" # the debs, .changes and .buildinfo stay in build-deb/
if [ ! -f "$rt_deb" ] || [ ! -f "$dev_deb" ]; then
    not_ok "no $rt_deb and $dev_deb: nothing to install"
    finish
fi
lintian --fail-on error --tag-display-limit 0 "$OUT"/*.changes >"$OUT/lintian.txt" 2>&1
check_eq "lintian: no error (build-deb/lintian.txt)" "$?" 0
grep -E '^[EWI]: ' "$OUT/lintian.txt" | sed 's/^/   /'
check_eq "the runtime package holds the module, the tools, their man pages and the snippet" \
    "$(dpkg-deb -c "$rt_deb" | grep -cE '/(fastsig\.so|fastsig-keytool|tzsum|fastsig-keytool\.1\.gz|tzsum\.1\.gz|fastsig\.7\.gz|fastsig\.cnf|openssl\.cnf)$')" 8
check_eq "the development package holds the headers, libfastsig.a and fastsig.pc" \
    "$(dpkg-deb -c "$dev_deb" | grep -cE '/(provider\.h|tz\.h|sl2\.h|gf127\.h|fastsig_err\.h|libfastsig\.a|fastsig\.pc)$')" 7
check "no benchmark in the packages" bash -c "! dpkg-deb -c '$rt_deb' | grep -q fastsig-bench"

# 2. Install. Whatever a previous run left installed goes first, so the file lists compare.
if dpkg-query -W -f='${Status}' $RT $DEV 2>/dev/null | grep -q 'ok installed'; then
    echo "   (purging the $RT / $DEV installed before this run)"
    "${APT[@]}" purge $RT $DEV >>"$LOG" 2>&1
fi
snapshot() { # every path outside the package managers' own records
    find /etc /usr /opt /srv /var/lib -xdev \( -path /var/lib/dpkg -o -path /var/lib/apt \
        -o -path /var/lib/ucf -o -path /var/lib/man-db \) -prune -o -print 2>/dev/null | sort
}
snapshot >"$OUT/before.txt"
check "apt-get install ./$(basename "$rt_deb") ./$(basename "$dev_deb")" \
    "${APT[@]}" install "$rt_deb" "$dev_deb"
dpkg -L $RT $DEV 2>/dev/null | sort -u >"$OUT/installed.txt"
modulesdir=$(pkg-config --variable=modulesdir libcrypto)
check "fastsig.so is in libcrypto's module directory ($modulesdir)" test -f "$modulesdir/fastsig.so"
check "/etc/ssl/fastsig.cnf is a conffile" \
    bash -c "dpkg-query -W -f='\${Conffiles}' $RT | grep -q ' /etc/ssl/fastsig.cnf '"
for page in fastsig-keytool.1 tzsum.1 fastsig.7; do
    check "man ${page%.*}(${page##*.}) is installed" man -w "${page##*.}" "${page%.*}"
done

# 3. The flows, as a user with an empty home: no -provider-path, no OPENSSL_MODULES.
WORK=$(mktemp -d)
export HOME=$WORK/home
mkdir -m 700 "$HOME"
unset OPENSSL_MODULES OPENSSL_CONF XDG_STATE_HOME FASTSIG_STATE_DIR
cd "$WORK" || finish
P="-provider fastsig -provider default"
check "openssl list -providers -provider fastsig (no path)" \
    bash -c "openssl list -providers -provider fastsig | grep -q 'fastsig provider'"
check "OPENSSL_CONF=/usr/share/fastsig/openssl.cnf activates default and fastsig" \
    bash -c "OPENSSL_CONF=/usr/share/fastsig/openssl.cnf openssl list -providers |
             grep -c 'status: active' | grep -qx 2"
# the README's system-wide recipe, on a copy of openssl.cnf
cp /etc/ssl/openssl.cnf "$WORK/system.cnf"
echo ".include /etc/ssl/fastsig.cnf" >>"$WORK/system.cnf"
check "openssl.cnf + '.include /etc/ssl/fastsig.cnf' activates default and fastsig" \
    bash -c "OPENSSL_CONF='$WORK/system.cnf' openssl list -providers | grep -c 'status: active' |
             grep -qx 2"
printf 'firmware image\n' >msg
# flow ALG CONF PROVIDER-OPTIONS: keygen (in the default state directory), sign, verify, a
# self-signed certificate, openssl verify; with OPENSSL_CONF=CONF unless CONF is "-"
flow() {
    local alg=$1 conf=$2 p=$3 how=${3:-OPENSSL_CONF=$2}
    local ossl=(openssl)
    [ "$conf" = - ] || ossl=(env OPENSSL_CONF="$conf" openssl)
    check "$alg ($how): genpkey" "${ossl[@]}" genpkey $p -algorithm "$alg" -out "$alg.key"
    check "$alg ($how): pkeyutl -sign" "${ossl[@]}" pkeyutl $p -sign -rawin -inkey "$alg.key" \
        -in msg -out "$alg.sig"
    check "$alg ($how): pkeyutl -verify" "${ossl[@]}" pkeyutl $p -verify -rawin -inkey "$alg.key" \
        -in msg -sigfile "$alg.sig"
    check "$alg ($how): req -x509 (self-signed)" "${ossl[@]}" req $p -x509 -new -key "$alg.key" \
        -subj "/CN=$alg package test" -days 2 -out "$alg.pem"
    check "$alg ($how): openssl verify" "${ossl[@]}" verify $p -CAfile "$alg.pem" "$alg.pem"
}
flow XMSS - "$P"
flow HSS /usr/share/fastsig/openssl.cnf ""
flow XMSSMT "$WORK/system.cnf" ""
states=$(find "$HOME/.local/state/fastsig" -maxdepth 1 -name '*.state' 2>/dev/null | wc -l)
check_eq "the keys' states are in the per-user default ~/.local/state/fastsig" "$states" 3
check_eq "which is mode 0700" "$(stat -c %a "$HOME/.local/state/fastsig" 2>/dev/null)" 700
check "fastsig-keytool shard (no -provider-path)" \
    fastsig-keytool shard --in XMSS.key --count 2 --out-prefix host
check "a shard signs, the key's certificate verifies it" bash -c "
    openssl pkeyutl $P -sign -rawin -inkey host2.pem -in msg -out host2.sig &&
    openssl pkeyutl $P -verify -rawin -certin -inkey XMSS.pem -in msg -sigfile host2.sig"
tz=$(tzsum msg | cut -d' ' -f1)
check_eq "tzsum = openssl dgst -TZ" "${tz:-tzsum failed}" "$(openssl dgst $P -TZ -r msg | cut -d' ' -f1)"
cat >use_tz.c <<'C'
#include <stdio.h>
#include <fastsig/tz.h>
#include <fastsig/provider.h>
int main(void)
{
    unsigned char d[TZ_DIGEST_SIZE];
    tz_hash("firmware image\n", 15, d);
    for (int i = 0; i < TZ_DIGEST_SIZE; i++)
        printf("%02x", d[i]);
    printf("\n");
    return FASTSIG_PROVIDER_NAME[0] != 'f';
}
C
check "a C program builds with pkg-config fastsig" \
    bash -c "cc use_tz.c -o use_tz \$(pkg-config --cflags --libs fastsig)"
check_eq "and its TZ digest is tzsum's" "$(./use_tz 2>&1)" "${tz:-tzsum failed}"

# 4. Purge: none of the packages' files, nothing new but what other packages own, the user's
# state kept.
user_state=$(cd "$HOME" && find . | sort | md5sum)
check "apt-get purge" "${APT[@]}" purge $RT $DEV
snapshot >"$OUT/after.txt"
left=$(while read -r f; do [ -f "$f" ] || [ -L "$f" ] && echo "$f"; done <"$OUT/installed.txt")
check_eq "no file of the packages is left" "$left" ""
for gone in /etc/ssl/fastsig.cnf /usr/share/fastsig /usr/include/fastsig "$modulesdir/fastsig.so"; do
    check "purged: $gone" test ! -e "$gone"
done
# (other sessions' meson installs and Python caches are not this package's doing)
new=$(comm -13 "$OUT/before.txt" "$OUT/after.txt" | grep -v -e '^/usr/local/' -e '/__pycache__' |
    while read -r f; do
    dpkg -S "$f" >/dev/null 2>&1 || echo "$f"
done)
check_eq "nothing new outside the user's home but other packages' files" "$new" ""
check_eq "the user's state (~/.local/state/fastsig: states, registry) stays as it was" \
    "$(cd "$HOME" && find . | sort | md5sum)" "$user_state"
cd "$ROOT" || true
rm -rf "$WORK"
echo "   (package step: $((SECONDS - start)) s, of which the build $build_secs s)"
finish
