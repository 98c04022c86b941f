#!/usr/bin/env bash
# openssl.sh SERIES [VARIANT] - an OpenSSL of another series (3.5, 3.6, ...) to build and test
# fastsig against, beside the system's 3.0. Prints its install prefix on the last line of its output.
#   VARIANT  (none)  upstream's default options, as Debian builds it
#            lms     enable-lms: 3.6's LMS verifier in the default provider (off by default)
#
# The source is Debian's: the openssl source package of the newest version of the series that
# Debian's archive lists (trixie and trixie-updates carry 3.5, forky and sid 3.6, experimental the
# next) and still serves. It is fetched with `apt-get source` through deb-src entries that live only
# in a temporary apt configuration (the system's sources, lists and caches are not touched, so
# nothing needs restoring). Only the unpatched upstream tarball (.orig.tar.gz) is built:
#   ./Configure --prefix=P --libdir=lib no-docs no-tests shared -Wl,-rpath,P/lib [VARIANT's options]
#   make && make install_sw install_ssldirs
# into a cache outside the clone (FASTSIG_OPENSSL_CACHE, default /var/cache/fastsig), one folder per
# version and variant: openssl-<version> or openssl-<version>-<variant>. A complete build there is
# reused without any network. The first build takes 10 to 20 minutes on 2 cores; compiles go
# through ccache (cache in .ccache beside the builds) when it is installed, so a second variant of
# the same version recompiles only the files the variant changes (a few minutes).
set -euo pipefail

die() { echo "openssl.sh: $*" >&2; exit 1; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: openssl.sh SERIES [VARIANT]   (e.g. 3.6 lms)"
SERIES=$1
VARIANT=${2:-}
[[ $SERIES =~ ^[0-9]+\.[0-9]+$ ]] || die "SERIES is major.minor, e.g. 3.6 (got '$SERIES')"
case $VARIANT in
'') OPTIONS=() ;;
lms) OPTIONS=(enable-lms) ;;
*) die "unknown variant '$VARIANT' (known: lms)" ;;
esac
SUFFIX=${VARIANT:+-$VARIANT}
CACHE=${FASTSIG_OPENSSL_CACHE:-/var/cache/fastsig}
SUITES="trixie trixie-updates forky sid experimental"

# A complete build of the series and variant, newest first.
cached() {
    local d
    for d in $(ls -d "$CACHE"/openssl-"$SERIES".* 2>/dev/null | sort -V -r); do
        [[ ${d##*/} =~ ^openssl-${SERIES//./\\.}\.[0-9]+$SUFFIX$ ]] || continue
        [ -f "$d/.complete" ] && [ -x "$d/bin/openssl" ] && { echo "$d"; return 0; }
    done
    return 1
}

mkdir -p "$CACHE" || die "cannot create the cache folder $CACHE"
exec 9>"$CACHE/.openssl$SERIES.lock"
flock 9 # one build of a series at a time; a second caller waits, then finds it cached

if prefix=$(cached); then
    echo "$prefix"
    exit 0
fi

what="OpenSSL $SERIES${VARIANT:+ ($VARIANT)}"
[ "$(id -u)" -eq 0 ] || die "$what is not in $CACHE, and building it needs root (apt-get source)"
for tool in apt-get apt-cache make perl gcc tar; do
    command -v "$tool" >/dev/null || die "$tool is needed to build $what"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/src"
cat >"$work/debian-src.sources" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $SUITES
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
APT=(-o "Dir::Etc::SourceList=$work/debian-src.sources" -o "Dir::Etc::SourceParts=$work/none"
     -o "Dir::State::Lists=$work/lists" -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
     -o "APT::Sandbox::User=root")

echo "== $what: reading Debian's source indexes ($SUITES)" >&2
apt-get "${APT[@]}" update -qq >&2 ||
    die "cannot reach Debian's archive for the source indexes (deb.debian.org): no $what to test against"
versions=$(apt-cache "${APT[@]}" showsrc openssl | sed -n 's/^Version: //p' | grep "^$SERIES\." | sort -V -r -u)
[ -n "$versions" ] || die "Debian's source indexes ($SUITES) list no openssl $SERIES.x"

# An index can name a version whose files the mirror no longer serves: take the newest that downloads.
got=
for v in $versions; do
    if (cd "$work/src" && apt-get "${APT[@]}" source --download-only -qq "openssl=$v" \
            >"$work/fetch.log" 2>&1); then
        got=$v
        break
    fi
    echo "== openssl $v is listed but not served ($(grep -m1 -o '[0-9]\{3\} [A-Za-z ]*' \
        "$work/fetch.log" || echo 'download failed')); trying an older one" >&2
    rm -f "$work/src"/*
done
[ -n "$got" ] || die "no openssl $SERIES source package could be downloaded (tried: $(echo $versions))"
upstream=${got%%-*}
orig=$(ls "$work/src"/openssl_"$upstream".orig.tar.* | grep -v '\.asc$' | head -1)
prefix=$CACHE/openssl-$upstream$SUFFIX

# ccache, when installed: both variants of a version share every compile the variant does not change
if [ -d /usr/lib/ccache ] && command -v ccache >/dev/null; then
    export PATH=/usr/lib/ccache:$PATH CCACHE_DIR=$CACHE/.ccache CCACHE_MAXSIZE=2G
    ccache -z >/dev/null
fi

echo "== OpenSSL $upstream${VARIANT:+ ($VARIANT)} (Debian $got): building into $prefix" >&2
rm -rf "$prefix"
tar -xf "$orig" -C "$work/src"
cd "$work/src/openssl-$upstream"
./Configure --prefix="$prefix" --libdir=lib no-docs no-tests shared "-Wl,-rpath,$prefix/lib" \
    "${OPTIONS[@]}" >"$work/configure.log" 2>&1 ||
    { tail -20 "$work/configure.log" >&2; die "OpenSSL $upstream: Configure ${OPTIONS[*]} failed"; }
make -j"$(nproc)" >"$work/make.log" 2>&1 || { tail -30 "$work/make.log" >&2; die "OpenSSL $upstream: make failed"; }
make install_sw install_ssldirs >"$work/install.log" 2>&1 ||
    { tail -20 "$work/install.log" >&2; die "OpenSSL $upstream: make install failed"; }
"$prefix/bin/openssl" version >&2
[ -n "${CCACHE_DIR:-}" ] && ccache -s 2>/dev/null | grep -i -m2 'hits\|misses' >&2
echo "Debian source package openssl $got, upstream tarball only; Configure options: ${OPTIONS[*]:-(defaults)}" \
    >"$prefix/.complete"
echo "$prefix"
