# setup.sh - sourced by demo.sh and test.sh: install what is missing (Debian,
# as root), then configure and build into $BUILD (default: build).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
BUILD=${BUILD:-$ROOT/build}

# Packages the build and the tests need; installed only when absent.
FASTSIG_PACKAGES=(gcc libc6-dev pkg-config meson ninja-build openssl
                  libssl-dev libgmp-dev libcunit1-dev)

fs_install_missing() {
    local missing=()
    for p in "${FASTSIG_PACKAGES[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "== installing: ${missing[*]}"
    if [ "$(id -u)" -ne 0 ]; then
        echo "error: missing packages (${missing[*]}); run as root or install them" >&2
        return 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# fs_build DIR [meson options...]
fs_build() {
    local dir=$1
    shift
    if [ -f "$dir/build.ninja" ]; then
        meson setup --reconfigure "$dir" "$@" >/dev/null
    else
        meson setup "$dir" "$@" >/dev/null
    fi
    ninja -C "$dir" >/dev/null
}
