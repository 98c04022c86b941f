#!/usr/bin/env bash
# keygen_resume.sh - a key generation in pieces (`-pkeyopt resume:PATH`,
# doc/state.md section 2) killed and run again: XMSS-SHA2_16_256 (64
# pieces of 1024 leaves) and the HSS key LMS_SHA256_M32_H15/LMOTS_SHA256_N32_W8
# (32 pieces of 1024 leaves), each killed (SIGKILL) once its checkpoint holds
# 8 pieces, then resumed: it says so, the key is the one a single run of the
# same seed makes, it signs, and the checkpoint is gone; also without a
# seed: option. Refused: another seed, another set (for HSS also another
# lower level, and an XMSS checkpoint), a set built in one piece (XMSS H10,
# HSS and LMS with a top H10), a damaged checkpoint, one open to other users.
# FASTSIG_SOAK=1 adds XMSSMT-SHA2_40/2_256 and HSS H20/W4 (2^20 leaves each).
source "$(dirname "$0")/lib.sh"
export FASTSIG_CHECKPOINT_INTERVAL=0 FASTSIG_PROGRESS=1
SEED=$(printf '%0192d' 11)
HSEED=$(printf '%096d' 11) # SEED and I of an n = 32 HSS key
echo "a message" >"$WORK/msg"
PIDS=
trap '[ -n "$PIDS" ] && kill -9 $PIDS 2>/dev/null; rm -rf "$WORK"' EXIT

alg() { case $1 in XMSSMT*) echo XMSSMT ;; LMS*) echo HSS ;; *) echo XMSS ;; esac; }
# gen PARAM STATE CKPT [OPT...]: genpkey of an XMSS / XMSS^MT / HSS set with a checkpoint
gen() { local param=$1 state=$2 ck=$3; shift 3
    openssl genpkey "${PROV[@]}" -algorithm "$(alg "$param")" -pkeyopt "param:$param" \
        -pkeyopt "state:$state" -pkeyopt "resume:$ck" "$@"; }
# says TEXT: the last refusal's message holds TEXT
says() { cp "$WORK/err" "$WORK/last.err"; check "  saying '$1'" grep -qF -- "$1" "$WORK/last.err"; }
# u CKPT OFF LEN: the little-endian integer of LEN (2, 4) bytes at OFF of the checkpoint
u() { od -An -tu"$3" -j"$2" -N"$3" "$1" 2>/dev/null | tr -d ' '; }
# pieces CKPT N: the checkpoint holds at least N pieces (genckpt.h: 48 bytes, the set,
# the seed, per x n bytes a piece, 8; XMSS: 32 a piece; HSS H15: 32768, the leaves)
pieces() { [ -s "$1" ] && [ "$(stat -c %s "$1")" -ge \
    $((48 + $(u "$1" 46 2) + $(u "$1" 44 2) + $2 * $(u "$1" 40 4) * $(u "$1" 20 4) + 8)) ]; }
# kill_at PARAM DIR N [OPT...]: a generation into DIR killed once its checkpoint holds N pieces
kill_at() { local param=$1 d=$2 n=$3; shift 3
    (exec openssl genpkey "${PROV[@]}" -algorithm "$(alg "$param")" -pkeyopt "param:$param" \
        -pkeyopt "state:$d/k.state" -pkeyopt "resume:$d/ck" -out "$d/k.pem" "$@" 2>"$d/first.err") &
    PIDS=$! # openssl itself (exec): the process killed
    for _ in $(seq 12000); do pieces "$d/ck" "$n" || ! kill -0 "$PIDS" 2>/dev/null && break; sleep 0.05; done
    kill -9 "$PIDS"; wait "$PIDS" 2>/dev/null; PIDS=
    check "$param: killed with a checkpoint of $n pieces or more" pieces "$d/ck" "$n"
    check_eq "  the checkpoint is mode 0600 (it holds the seed)" "$(stat -c %a "$d/ck")" 600
    check_eq "  no state file yet" "$(ls "$d/k.state" 2>/dev/null)" ""
}
# resumed PARAM DIR [OPT...]: the generation run again goes on from its checkpoint
resumed() { local param=$1 d=$2; shift 2
    check "$param: run again, it resumes" gen "$param" "$d/k.state" "$d/ck" -out "$d/k.pem" "$@"
    cp "$WORK/err" "$d/second.err"
    check "  saying so, with the pieces done" grep -qE "resumed from $d/ck: ([89]|[1-9][0-9]+) of [0-9]+ pieces done" "$d/second.err"
    check_eq "  the pieces done were not built again (no 10% line: it resumed past 10%)" \
        "$(grep -c ' 10% (' "$d/second.err")" 0
    check_eq "  the checkpoint is removed" "$(ls "$d/ck" 2>/dev/null)" ""
    [ -n "${REF:-}" ] && check "  the node cache file it wrote is a single run's, byte for byte" \
        cmp "$d/k.state.cache" "$REF.cache"
    check "  the key signs" openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$d/k.pem" -in "$WORK/msg" -out "$d/sig"
    openssl pkey "${PROV[@]}" -in "$d/k.pem" -pubout -out "$d/pub.pem"
    check "  ... and the signature verifies" openssl pkeyutl "${PROV[@]}" -verify -rawin -pubin \
        -inkey "$d/pub.pem" -in "$WORK/msg" -sigfile "$d/sig"
}

# killed_and_resumed PARAM SEED TAG: killed and resumed with SEED, the key compared with a
# single run's; then with a random seed
killed_and_resumed() { local param=$1 seed=$2 d="$WORK/$3"
    mkdir -p "$d" "$d/one" "$d/random"
    FASTSIG_STATE_DIR="$d/one/sd" openssl genpkey "${PROV[@]}" -algorithm "$(alg "$param")" \
        -pkeyopt "param:$param" -pkeyopt "seed:$seed" -pkeyopt "state:$d/one/k.state" \
        -out "$d/one/k.pem" 2>/dev/null
    kill_at "$param" "$d" 8 -pkeyopt "seed:$seed"
    REF="$d/one/k.state" resumed "$param" "$d" -pkeyopt "seed:$seed"
    check_eq "$param: the resumed key is the one a single run makes" \
        "$(openssl pkey "${PROV[@]}" -in "$d/k.pem" -pubout | md5sum)" \
        "$(openssl pkey "${PROV[@]}" -in "$d/one/k.pem" -pubout | md5sum)"
    kill_at "$param" "$d/random" 8
    resumed "$param" "$d/random"
}
P16=XMSS-SHA2_16_256
killed_and_resumed $P16 "$SEED" xmss
# HSS: the top tree's leaves in pieces of 1024, in order (lms/hss_resume.c)
H15=LMS_SHA256_M32_H15/LMOTS_SHA256_N32_W8
killed_and_resumed $H15 "$HSEED" hss

# refusals, before any tree is built
d="$WORK/refused"; mkdir -p "$d"
kill_at $P16 "$d" 2 -pkeyopt "seed:$(printf '%0192d' 13)"
check_fails "a checkpoint with another seed: option refused" gen $P16 "$d/k.state" "$d/ck" \
    -out "$d/x.pem" -pkeyopt "seed:$(printf '%0192d' 12)"
says "checkpoint file $d/ck: holds another seed than the seed: option"
check_fails "a checkpoint of another set refused" gen XMSS-SHA2_16_192 "$d/k.state" "$d/ck" -out "$d/x.pem"
says "a checkpoint of another parameter set"
cp "$d/ck" "$d/ck.good"
flip_bit "$d/ck" 60
check_fails "a damaged checkpoint refused" gen $P16 "$d/k.state" "$d/ck" -out "$d/x.pem"
says "checkpoint file $d/ck: not a whole checkpoint"
cp "$d/ck.good" "$d/ck" && chmod 0666 "$d/ck"
check_fails "a checkpoint open to other users refused" gen $P16 "$d/k.state" "$d/ck" -out "$d/x.pem"
says "writable by group or others"
check_fails "resume of a set built in one piece refused" gen XMSS-SHA2_10_256 "$d/t.state" "$d/t.ck" -out "$d/x.pem"
says "built in one piece"
check_fails "resume of an HSS key with a top H10 refused" openssl genpkey "${PROV[@]}" -algorithm HSS \
    -pkeyopt "param:LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W8,$H15" \
    -pkeyopt "state:$d/h.state" -pkeyopt "resume:$d/h.ck" -out "$d/x.pem"
says "checkpoint file $d/h.ck: resume is for sets whose top tree is taller than 10"
check_fails "resume of an LMS key of H10 refused" openssl genpkey "${PROV[@]}" -algorithm LMS \
    -pkeyopt "param:LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W8" \
    -pkeyopt "state:$d/h.state" -pkeyopt "resume:$d/h.ck" -out "$d/x.pem"
says "built in one piece"
chmod 0600 "$d/ck"
check_fails "an XMSS checkpoint refused by HSS" gen $H15 "$d/h.state" "$d/ck" -out "$d/x.pem"
says "checkpoint file $d/ck: a checkpoint of another parameter set"
mkdir -p "$d/h"
kill_at $H15 "$d/h" 2 -pkeyopt "seed:$(printf '%096d' 13)"
check_fails "an HSS checkpoint with another seed: option refused" gen $H15 "$d/h.state" "$d/h/ck" \
    -out "$d/x.pem" -pkeyopt "seed:$(printf '%096d' 12)"
says "checkpoint file $d/h/ck: holds another seed than the seed: option"
check_fails "an HSS checkpoint of another LM-OTS set refused" gen LMS_SHA256_M32_H15/LMOTS_SHA256_N32_W4 \
    "$d/h.state" "$d/h/ck" -out "$d/x.pem"
says "checkpoint file $d/h/ck: a checkpoint of another parameter set"
check_fails "an HSS checkpoint of another lower level refused" gen "$H15,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8" \
    "$d/h.state" "$d/h/ck" -out "$d/x.pem"
says "a checkpoint of another parameter set"
check_fails "an HSS checkpoint refused by XMSS" gen $P16 "$d/h.state" "$d/h/ck" -out "$d/x.pem"
says "a checkpoint of another parameter set"
check_eq "  no checkpoint made by any refusal" "$(ls "$d" "$d/h" | grep -c 'ck$')" 2

if soak; then
    d="$WORK/mt"; mkdir -p "$d"
    kill_at XMSSMT-SHA2_40/2_256 "$d" 200 # 200 of 1024: past 10%, no 10% line after
    resumed XMSSMT-SHA2_40/2_256 "$d"
    d="$WORK/h20"; mkdir -p "$d"
    kill_at LMS_SHA256_M32_H20/LMOTS_SHA256_N32_W4 "$d" 200
    resumed LMS_SHA256_M32_H20/LMOTS_SHA256_N32_W4 "$d"
else
    ok "XMSSMT-SHA2_40/2_256 and HSS H20 killed and resumed: FASTSIG_SOAK=1 only (2^20 leaves)"
fi
summary keygen_resume
