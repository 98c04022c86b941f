#!/usr/bin/env bash
# keygen_checks.sh - a stateful key generation refuses a bad output before it
# builds any tree (issue 24, item 4), on XMSS-SHA2_16_256 (65536 leaves),
# XMSS^MT and HSS keys: a missing state directory, a state file already
# there, a registry path that is no directory (the node cache's path is
# best effort: hss.sh and stateful_flows.sh keep a FIFO or directory there). "Before the build" is checked by what is left, never by
# time: no progress line (FASTSIG_PROGRESS=1 prints one per tenth of the
# leaves once the build runs), no node cache, no registry entry, and the
# same seed generates fine afterwards. Then the progress line: percent,
# rate and time left with FASTSIG_PROGRESS=1, nothing in a pipe by default
# or with FASTSIG_PROGRESS=0, and on a terminal (script(1)) by default.
source "$(dirname "$0")/lib.sh"

# params ALG: a set of the kind, costly enough that a build shows progress.
# Only the generating thread reports, after each share it builds, so a tree
# of a few shares (H10: 4 of 256 leaves) may show none when the other
# thread builds all but one: HSS takes an H15 top tree (128 shares).
params() {
    case $1 in
        XMSS) echo param:XMSS-SHA2_16_256 ;;
        XMSSMT) echo param:XMSSMT-SHA2_20/2_256 ;;
        HSS) echo param:LMS_SHA256_M32_H15/LMOTS_SHA256_N32_W4,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4 ;;
    esac
}
# seed ALG: a fixed seed of the kind's length (3n; HSS: n + 16)
seed() { case $1 in HSS) printf '%096d' 7 ;; *) printf '%0192d' 7 ;; esac; }
gen() { local alg=$1 state=$2; shift 2
    FASTSIG_PROGRESS=1 openssl genpkey "${PROV[@]}" -algorithm "$alg" -pkeyopt "$(params "$alg")" \
        -pkeyopt "seed:$(seed "$alg")" -pkeyopt "state:$state" "$@"; }
# entries DIR: the registry's entries (none when it is no directory)
entries() { [ -d "$1" ] && ls "$1" | grep -v '\.mark-'; }
# refused DESCRIPTION WHY ALG STATE: genpkey refuses saying WHY, with no
# tree built: no progress line, no node cache, no registry entry
refused() {
    local d=$1 why=$2 alg=$3 state=$4
    check_fails "$d" gen "$alg" "$state" -out "$WORK/refused.pem"
    cp "$WORK/err" "$WORK/gen.err"
    check "  saying '$why'" grep -qF -- "$why" "$WORK/gen.err"
    check_eq "  before any tree was built (no progress line)" "$(grep -c '% (' "$WORK/gen.err")" 0
    check_eq "  no node cache written" "$(ls "$state.cache" 2>/dev/null)" ""
    check_eq "  no registry entry" "$(entries "$FASTSIG_STATE_DIR/registry")" ""
    rm -f "$WORK/refused.pem" # openssl 3.0's genpkey made it empty (doc/state.md section 2)
}

for ALG in XMSS XMSSMT HSS; do
    d="$WORK/$ALG"
    mkdir -p "$d"
    export FASTSIG_STATE_DIR="$d/default-state"
    refused "$ALG: a missing state directory" "state file $d/none/k.state: No such file or directory" \
        "$ALG" "$d/none/k.state"
    echo "not a state" >"$d/taken.state"
    refused "$ALG: a state file already there" "state file $d/taken.state: a file is there already" \
        "$ALG" "$d/taken.state"
    check_eq "  ... left as it was" "$(cat "$d/taken.state")" "not a state"
    mkdir -p "$FASTSIG_STATE_DIR" && : >"$FASTSIG_STATE_DIR/registry"
    refused "$ALG: a registry path that is no directory" "registry directory $FASTSIG_STATE_DIR/registry" \
        "$ALG" "$d/k.state"
    rm "$FASTSIG_STATE_DIR/registry"
    check "$ALG: the same seed then generates, with progress lines" gen "$ALG" "$d/k.state" -out "$d/k.pem"
    cp "$WORK/err" "$WORK/gen.$ALG.err"
    cp "$WORK/err" "$WORK/gen.err"
    check "  a line per tenth: percent and leaves" grep -qE "^\.*fastsig: .* key: +[1-9][0-9]?% \([0-9]+ of [0-9]+ leaves\)" "$WORK/gen.err"
    check "  a closing line" grep -qE "fastsig: .* key: 100% \([0-9]+ leaves\) in [0-9.]+ s" "$WORK/gen.err"
    check "  the key signs" openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$d/k.pem" -in "$d/k.pem" -out "$d/sig"
done

# progress: in a pipe quiet by default and with 0; a rate and time left
# once a second has passed (XMSS-SHA2_16_256 takes several)
export FASTSIG_STATE_DIR="$WORK/p-state"
openssl genpkey "${PROV[@]}" -algorithm HSS -pkeyopt "$(params HSS)" -pkeyopt "state:$WORK/p1.state" \
    -out "$WORK/p1.pem" 2>"$WORK/p1.err"
check_eq "progress in a pipe: none by default" "$(grep -c 'leaves' "$WORK/p1.err")" 0
FASTSIG_PROGRESS=0 openssl genpkey "${PROV[@]}" -algorithm HSS -pkeyopt "$(params HSS)" \
    -pkeyopt "state:$WORK/p2.state" -out "$WORK/p2.pem" 2>"$WORK/p2.err"
check_eq "progress with FASTSIG_PROGRESS=0: none" "$(grep -c 'leaves' "$WORK/p2.err")" 0
check "progress of XMSS-SHA2_16_256 (FASTSIG_PROGRESS=1): rate and time left" \
    grep -qE "leaves\), [0-9]+ leaves/s, [0-9]+ s left" "$WORK/gen.XMSS.err"
if command -v script >/dev/null; then
    script -qec "openssl genpkey ${PROV[*]} -algorithm HSS -pkeyopt $(params HSS) -pkeyopt state:$WORK/p3.state -out $WORK/p3.pem" \
        /dev/null >"$WORK/p3.tty" 2>&1
    check "progress on a terminal by default: one line rewritten (\\r)" grep -qaE $'\rfastsig: .* key: 100%' "$WORK/p3.tty"
else
    ok "progress on a terminal: script(1) missing, skipped"
fi
summary keygen_checks
