#!/usr/bin/env bash
# openssl35.sh - an OpenSSL 3.5 (the current LTS) to build and test fastsig against, beside the
# system's 3.0. Prints its install prefix on the last line of its output.
#
# The source is Debian's: the openssl source package of trixie (Debian 13), fetched with
# `apt-get source` through a deb-src entry that lives only in a temporary apt configuration (the
# system's sources, lists and caches are not touched, so nothing needs restoring). Only the
# unpatched upstream tarball (.orig.tar.gz) is built:
#   ./Configure --prefix=P --libdir=lib no-docs no-tests shared -Wl,-rpath,P/lib && make && make install_sw install_ssldirs
# into a cache outside the clone, one folder per version (FASTSIG_OPENSSL_CACHE, default
# /var/cache/fastsig): openssl-<version>. A complete build there is reused without any network.
# The first build takes 10 to 20 minutes on 2 cores.
set -euo pipefail

SERIES=3.5
CACHE=${FASTSIG_OPENSSL_CACHE:-/var/cache/fastsig}

die() { echo "openssl35.sh: $*" >&2; exit 1; }

# A complete build of the series, newest first.
cached() {
    local d
    for d in $(ls -d "$CACHE"/openssl-"$SERIES".* 2>/dev/null | sort -V -r); do
        [ -f "$d/.complete" ] && [ -x "$d/bin/openssl" ] && { echo "$d"; return 0; }
    done
    return 1
}

mkdir -p "$CACHE" || die "cannot create the cache folder $CACHE"
exec 9>"$CACHE/.openssl$SERIES.lock"
flock 9 # one build at a time; a second caller waits, then finds it cached

if prefix=$(cached); then
    echo "$prefix"
    exit 0
fi

[ "$(id -u)" -eq 0 ] || die "OpenSSL $SERIES is not in $CACHE, and building it needs root (apt-get source)"
for tool in apt-get apt-cache make perl gcc tar; do
    command -v "$tool" >/dev/null || die "$tool is needed to build OpenSSL $SERIES"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/src"
cat >"$work/trixie-src.sources" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie trixie-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
APT=(-o "Dir::Etc::SourceList=$work/trixie-src.sources" -o "Dir::Etc::SourceParts=$work/none"
     -o "Dir::State::Lists=$work/lists" -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
     -o "APT::Sandbox::User=root")

echo "== OpenSSL $SERIES: reading Debian's trixie source index" >&2
apt-get "${APT[@]}" update -qq >&2 ||
    die "cannot reach Debian's archive for the trixie source index (deb.debian.org): no OpenSSL $SERIES to test against"
versions=$(apt-cache "${APT[@]}" showsrc openssl | sed -n 's/^Version: //p' | grep "^$SERIES\." | sort -V -r -u)
[ -n "$versions" ] || die "Debian's trixie source index lists no openssl $SERIES.x"

# The index can name a version whose files the mirror no longer serves: take the newest that downloads.
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
prefix=$CACHE/openssl-$upstream

echo "== OpenSSL $upstream (Debian $got): building into $prefix" >&2
rm -rf "$prefix"
tar -xf "$orig" -C "$work/src"
cd "$work/src/openssl-$upstream"
./Configure --prefix="$prefix" --libdir=lib no-docs no-tests shared "-Wl,-rpath,$prefix/lib" >"$work/configure.log" 2>&1 ||
    { tail -20 "$work/configure.log" >&2; die "OpenSSL $upstream: Configure failed"; }
make -j"$(nproc)" >"$work/make.log" 2>&1 || { tail -30 "$work/make.log" >&2; die "OpenSSL $upstream: make failed"; }
make install_sw install_ssldirs >"$work/install.log" 2>&1 ||
    { tail -20 "$work/install.log" >&2; die "OpenSSL $upstream: make install failed"; }
"$prefix/bin/openssl" version >&2
echo "Debian source package openssl $got, upstream tarball only" >"$prefix/.complete"
echo "$prefix"
