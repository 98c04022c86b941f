# lib.sh - sourced by the CLI tests: the openssl command with the fresh
# module, a scratch folder, and pass/fail counting with a closing summary.
set -u
# folders made here (mkdir) must not be group-writable under a umask of 002:
# fastsig refuses a state directory others may write (doc/state.md, section 3)
umask 022
MODULE_DIR=${FASTSIG_MODULE_DIR:?FASTSIG_MODULE_DIR must name the folder holding fastsig.so}
VECTORS=${FASTSIG_VECTORS:-$(dirname "${BASH_SOURCE[0]}")/../vectors}
PROV=(-provider-path "$MODULE_DIR" -provider fastsig -provider default)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The default state directory holds the key-id registry: a fresh one per
# script, so that known-answer keys (a fixed seed) can be generated again in
# the next run, and the user's own stays untouched.
export FASTSIG_STATE_DIR="$WORK/default-state"
PASSED=0
FAILED=0

ok() { PASSED=$((PASSED + 1)); echo "ok   - $*"; }
not_ok() { FAILED=$((FAILED + 1)); echo "FAIL - $*"; }
# check DESCRIPTION COMMAND...: passes when the command succeeds
check() { local d=$1; shift; if "$@" >"$WORK/out" 2>"$WORK/err"; then ok "$d"; else not_ok "$d"; sed 's/^/    /' "$WORK/err" "$WORK/out" | head -20; fi; }
# check_fails DESCRIPTION COMMAND...: passes when the command fails
check_fails() { local d=$1; shift; if "$@" >"$WORK/out" 2>"$WORK/err"; then not_ok "$d (succeeded)"; else ok "$d"; fi; }
# check_eq DESCRIPTION GOT WANT
check_eq() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1"; echo "    got:  $2"; echo "    want: $3"; fi; }
# check_sign_refused DESCRIPTION WHY KEY MSG OUT: `pkeyutl -sign -rawin` with
# KEY fails, its error message contains WHY, and OUT holds no signature bytes
check_sign_refused() {
    local d=$1 why=$2 key=$3 msg=$4 out=$5
    rm -f "$out"
    check_fails "$d" openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$key" -in "$msg" -out "$out"
    cp "$WORK/err" "$WORK/prev.err"
    check "$d: saying '$why'" grep -q "$why" "$WORK/prev.err"
    check_eq "$d: no signature bytes" "$(cat "$out" 2>/dev/null | wc -c)" 0
}
# soak: FASTSIG_SOAK set and not 0 (the long runs), as the C tests read it
soak() { [ -n "${FASTSIG_SOAK:-}" ] && [ "${FASTSIG_SOAK:0:1}" != 0 ]; }
# flip_bit FILE OFFSET: xor the low bit of the byte at OFFSET, in place
flip_bit() {
    local b
    b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf "\\$(printf %03o $((b ^ 1)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
# said DESCRIPTION TEXT: the error of the last command that check or check_fails ran contains TEXT
said() {
    cp "$WORK/err" "$WORK/prev.err"
    check "$1" grep -q "$2" "$WORK/prev.err"
}
# remaining KEY: the signatures a stateful key has left (pkey -text), empty for other keys
remaining() {
    openssl pkey "${PROV[@]}" -in "$1" -noout -text 2>/dev/null |
        sed -n 's/^state: index [0-9]*, remaining \([0-9]*\) of.*/\1/p'
}
need_vectors() {
    [ -d "$VECTORS" ] && return 0
    not_ok "known-answer vectors not found: looked in $VECTORS (set FASTSIG_VECTORS)"
    return 1
}
# genkey ALG FILE: a key of ALG with small, quick parameters (a stateful
# key's state file beside it)
genkey() {
    local alg=$1 out=$2 opts=()
    case $alg in
        RW | RW-P1363) opts=(-pkeyopt bits:2048) ;;
        XMSS) opts=(-pkeyopt param:XMSS-SHA2_10_256 -pkeyopt "state:$out.state") ;;
        XMSSMT) opts=(-pkeyopt param:XMSSMT-SHA2_20/4_256 -pkeyopt "state:$out.state") ;;
        HSS) opts=(-pkeyopt param:LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4
                   -pkeyopt "state:$out.state") ;;
        *) opts=(-pkeyopt "state:$out.state") ;;
    esac
    openssl genpkey "${PROV[@]}" -algorithm "$alg" "${opts[@]}" -out "$out"
}

# summary NAME: the closing line, and the exit status
# provider_cnf FILE [LINE...]: an openssl.cnf activating the default provider
# and fastsig, with LINEs (e.g. "state_dir = D") in fastsig's section
provider_cnf() {
    local f=$1
    shift
    printf '%s\n' "openssl_conf = openssl_init" "[openssl_init]" "providers = provider_sect" \
        "[provider_sect]" "default = default_sect" "fastsig = fastsig_sect" "[default_sect]" \
        "activate = 1" "[fastsig_sect]" "module = $MODULE_DIR/fastsig.so" "$@" "activate = 1" >"$f"
}

# hold_lock FILE: another process ($HOLD_LOCK, the hold_lock helper) holds
# FILE's OFD lock, as a signer mid-update does, until unhold
HOLDER=
hold_lock() {
    rm -f "$WORK/ready"
    "$HOLD_LOCK" "$1" "$WORK/ready" &
    HOLDER=$!
    for _ in $(seq 100); do [ -e "$WORK/ready" ] && return 0; sleep 0.1; done
    not_ok "hold_lock: no lock on $1"
}
unhold() { kill "$HOLDER"; wait "$HOLDER" 2>/dev/null; HOLDER=; }

summary() { echo "$1: $PASSED passed, $FAILED failed"; [ "$FAILED" -eq 0 ]; }
