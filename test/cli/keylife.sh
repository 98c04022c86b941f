#!/usr/bin/env bash
# keylife.sh - fastsig-keytool status, move and list with the real openssl,
# for XMSS, XMSS^MT and HSS keys (whole keys, shards, encrypted keys):
# status from a private key, a public key (through the registry) and a
# state file, without waiting on a held lock, naming a running signer and
# its block; move within and across filesystems, refused (and nothing
# moved) while the state is locked, onto an existing file, into a missing
# directory, with a wrong passphrase; an interrupted move finished; the
# registry entry following; list's rows against real signature sizes;
# unknown set names answered with the nearest ones; the warn-remaining
# low-water warning (once per process; config, key and context parameter);
# a spent one-time key, whose state is not moved.
# Usage: keylife.sh HOLD_LOCK SIGN_HOLD (the helper programs beside it).
source "$(dirname "$0")/lib.sh"
SECONDS=0
KEYTOOL=${FASTSIG_KEYTOOL:?FASTSIG_KEYTOOL must name the fastsig-keytool binary}
HOLD_LOCK=$1
SIGN_HOLD=$2
export FASTSIG_MODULE_DIR=$MODULE_DIR
KT() { "$KEYTOOL" "$1" -provider-path "$MODULE_DIR" "${@:2}"; }
GUARD=(timeout 60) # a hang guard, not a timing assertion
echo "a message" >"$WORK/msg"

SIGNER=
# signer KEY N: a running process that signed N times with KEY
signer() {
    rm -f "$WORK/signer.ready"
    "$SIGN_HOLD" "$1" "$2" "$WORK/signer.ready" >"$WORK/signer.out" 2>"$WORK/signer.err" &
    SIGNER=$!
    for _ in $(seq 300); do [ -e "$WORK/signer.ready" ] && return 0; sleep 0.1; done
    not_ok "sign_hold: not ready"
}
unsign() { kill "$SIGNER"; wait "$SIGNER" 2>/dev/null; SIGNER=; }
trap '[ -n "$HOLDER" ] && kill "$HOLDER"; [ -n "$SIGNER" ] && kill "$SIGNER"; rm -rf "$WORK"' EXIT

sign() { openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$1" -in "$WORK/msg" -out "$2" "${@:3}"; }
verify() { openssl pkeyutl "${PROV[@]}" -verify -rawin -pubin -inkey "$1" -in "$WORK/msg" -sigfile "$2"; }
# field FILE NAME [ARGS...]: a JSON field of status's first object
field() {
    KT status --json "${@:3}" "$1" | python3 -c \
        "import json,sys; print(json.load(sys.stdin)[0].get('$2'))"
}
# checko / check_failso: check / check_fails keeping the command's output
# and errors in $WORK/o and $WORK/e for the greps after it
checko() { check "$@"; cp "$WORK/out" "$WORK/o"; cp "$WORK/err" "$WORK/e"; }
check_failso() { check_fails "$@"; cp "$WORK/out" "$WORK/o"; cp "$WORK/err" "$WORK/e"; }
# same_files DESCRIPTION A B: byte for byte (both present)
same_files() { check "$1" cmp "$2" "$3"; }

life() {
    local alg=$1 d="$WORK/$1" max
    mkdir -p "$d/a" "$d/b"
    genkey "$alg" "$d/a/k.pem" 2>/dev/null
    openssl pkey "${PROV[@]}" -in "$d/a/k.pem" -pubout -out "$d/k.pub"
    max=$(openssl pkey "${PROV[@]}" -in "$d/a/k.pem" -noout -text | sed -n 's/^state: .* of \([0-9]*\) .*/\1/p')
    check "$alg: signs" sign "$d/a/k.pem" "$d/s1"

    # --- status ---
    checko "$alg: status KEY" KT status "$d/a/k.pem"
    check "$alg: ... next index 1, durable" grep -q "next index:   1 (the state file's next unreserved index: durable)" "$WORK/o"
    check "$alg: ... remaining" grep -q "remaining:    $((max - 1)) of $max" "$WORK/o"
    check "$alg: ... no signer" grep -q "open by:      no process" "$WORK/o"
    check_eq "$alg: status --json PUB finds the state through the registry" \
        "$(field "$d/k.pub" state)" "$d/a/k.pem.state"
    check_eq "$alg: status --json STATE: remaining" "$(field "$d/a/k.pem.state" remaining)" $((max - 1))
    check_eq "$alg: ... and the set from a private key" "$(field "$d/a/k.pem" set)" \
        "$(openssl pkey "${PROV[@]}" -in "$d/a/k.pem" -noout -text | sed -n 's/^.*parameter set: //p' | head -1)"

    # --- a running signer: status names it; its block is below next ---
    signer "$d/a/k.pem" 3
    check_eq "$alg: status names the running signer" "$(field "$d/a/k.pem" open_by)" "[$SIGNER]"
    local live after
    live=$(field "$d/a/k.pem" next)
    unsign
    after=$(field "$d/a/k.pem" next)
    check "$alg: next while it runs ($live) covers its block, above what it used (4)" test "$live" -gt 4
    check "$alg: ... and falls when it exits and gives the rest back ($after)" test "$after" -lt "$live"

    # --- a held lock: status does not wait, move is refused ---
    hold_lock "$d/a/k.pem.state"
    check "$alg: status does not wait on a held lock" env FASTSIG_STATE_LOCK_TIMEOUT=600 \
        "${GUARD[@]}" "$KEYTOOL" status -provider-path "$MODULE_DIR" "$d/a/k.pem"
    cp "$d/a/k.pem" "$d/before.pem"
    check_failso "$alg: move refused while the state is locked" env FASTSIG_STATE_LOCK_TIMEOUT=600 \
        "${GUARD[@]}" "$KEYTOOL" move -provider-path "$MODULE_DIR" --in "$d/a/k.pem" --state "$d/b/k.state"
    check "$alg: ... saying so" grep -q "state file $d/a/k.pem.state is locked by another process" "$WORK/e"
    unhold
    check "$alg: ... nothing moved" test ! -e "$d/b/k.state" -a -e "$d/a/k.pem.state"
    same_files "$alg: ... the key unchanged" "$d/a/k.pem" "$d/before.pem"

    # --- refusals: an existing file, a missing directory ---
    echo keep >"$d/b/taken.state"
    check_failso "$alg: move onto an existing file refused" KT move --in "$d/a/k.pem" --state "$d/b/taken.state"
    check "$alg: ... naming it" grep -q "$d/b/taken.state exists: not overwritten (nothing moved)" "$WORK/e"
    check_eq "$alg: ... left as it was" "$(cat "$d/b/taken.state")" keep
    echo keep >"$d/b/c.state.cache"
    check_fails "$alg: move onto an existing NEW.cache refused" KT move --in "$d/a/k.pem" --state "$d/b/c.state"
    check_failso "$alg: move into a missing directory refused" KT move --in "$d/a/k.pem" --state "$d/nodir/k.state"
    check "$alg: ... naming it" grep -q "nodir/k.state: its directory is missing" "$WORK/e"
    same_files "$alg: ... the key unchanged" "$d/a/k.pem" "$d/before.pem"
    check_eq "$alg: ... the state unchanged" "$(field "$d/a/k.pem" next)" "$after"

    # --- the move ---
    check "$alg: move" KT move --in "$d/a/k.pem" --state "$d/b/k.state"
    check "$alg: ... the old state and cache are gone" test ! -e "$d/a/k.pem.state" -a ! -e "$d/a/k.pem.state.cache"
    check "$alg: ... the cache came along" test -s "$d/b/k.state.cache"
    check_eq "$alg: ... the key names the new state" "$(field "$d/a/k.pem" state)" "$d/b/k.state"
    check_eq "$alg: ... at the same index" "$(field "$d/a/k.pem" next)" "$after"
    check_eq "$alg: ... the registry entry follows (status PUB)" "$(field "$d/k.pub" state)" "$d/b/k.state"
    grep -rlx "$d/b/k.state" "$FASTSIG_STATE_DIR/registry" >"$d/entries"
    check_eq "$alg: ... its key-id and seed entries both name the new state" \
        "$(wc -l <"$d/entries") $(grep -c '\.seed$' "$d/entries")" "2 1"
    check "$alg: ... and signs" sign "$d/a/k.pem" "$d/s2"
    check "$alg: ... a signature that verifies" verify "$d/k.pub" "$d/s2"
    check_eq "$alg: ... with the next index" "$(field "$d/a/k.pem" next)" $((after + 1))
    check_sign_refused "$alg: a copy of the key from before the move signs nothing" \
        "signature state file is missing" "$d/before.pem" "$WORK/msg" "$d/none.sig"
    checko "$alg: move to where it is: nothing to do" KT move --in "$d/a/k.pem" --state "$d/b/k.state"
    check "$alg: ... says so" grep -q "nothing to move" "$WORK/o"

    # --- across filesystems (when /dev/shm is another one) ---
    local shm
    shm=$(mktemp -d /dev/shm/keylife.XXXXXX 2>/dev/null) || shm=
    if [ -n "$shm" ] && [ "$(stat -c %d "$shm")" != "$(stat -c %d "$d/b")" ]; then
        check "$alg: move to another filesystem" KT move --in "$d/a/k.pem" --state "$shm/k.state"
        check "$alg: ... and back" KT move --in "$d/a/k.pem" --state "$d/b/k2.state"
        check "$alg: ... signs" sign "$d/a/k.pem" "$d/s3"
        check_eq "$alg: ... the index goes on" "$(field "$d/a/k.pem" next)" $((after + 2))
        check "$alg: ... nothing left on the other one" test -z "$(ls "$shm")"
    else
        ok "$alg: (no second filesystem at /dev/shm: cross-filesystem move not run)"
        KT move --in "$d/a/k.pem" --state "$d/b/k2.state" >/dev/null && sign "$d/a/k.pem" "$d/s3"
    fi
    [ -n "$shm" ] && rm -rf "$shm"

    # --- an interrupted move (NEW made, the key not rewritten) is finished:
    # a shard of every unspent index is exactly that state ---
    local next
    next=$(field "$d/a/k.pem" next)
    cp "$d/a/k.pem" "$d/half.pem"
    KT shard --in "$d/half.pem" --range "$next-$max" --out-prefix "$d/cut" -state "$d/b/k3.state" >/dev/null
    checko "$alg: an interrupted move is finished" KT move --in "$d/half.pem" --state "$d/b/k3.state"
    check "$alg: ... saying so" grep -q "finishing an interrupted move" "$WORK/e"
    check "$alg: ... and the key signs" sign "$d/half.pem" "$d/s4"
    check_eq "$alg: ... from where the old state stood" "$(field "$d/half.pem" next)" $((next + 1))
}

for alg in XMSS XMSSMT HSS; do life "$alg"; done

# --- shards and encrypted keys; damaged and foreign states ---
enc_life() {
    local alg=$1 d="$WORK/enc-$1" e="$1, encrypted" half
    mkdir -p "$d/new"
    genkey "$alg" "$d/k.pem" 2>/dev/null
    openssl pkey "${PROV[@]}" -in "$d/k.pem" -pubout -out "$d/k.pub"
    openssl pkey "${PROV[@]}" -in "$d/k.pem" -aes256 -passout pass:secret -out "$d/e.pem"
    half=$(($(field "$d/k.pem" max) / 2))
    rm "$d/k.pem"
    check_failso "$e: status without -passin is refused" KT status "$d/e.pem"
    check "$e: ... pointing to the public key or the state" grep -q "Give -passin, or run status on its public key or its state file" "$WORK/e"
    check "$e: status -passin" KT status -passin pass:secret "$d/e.pem"
    check_fails "$e: status with a wrong passphrase fails" KT status -passin pass:wrong "$d/e.pem"
    check_fails "$e: move with a wrong passphrase is refused" KT move --in "$d/e.pem" \
        --state "$d/new/e.state" -passin pass:wrong
    check "$e: ... nothing moved" test ! -e "$d/new/e.state" -a -e "$d/k.pem.state"
    check "$e: shards" KT shard --in "$d/e.pem" -passin pass:secret --count 2 --out-prefix "$d/host"
    check_eq "$e: status PUB lists the key's state and its 2 shards" \
        "$(KT status --json "$d/k.pub" | grep -c '"state"')" 3
    check "$e: move a shard" KT move --in "$d/host1.pem" --state "$d/new/h1.state" -passin pass:secret
    check "$e: ... still encrypted" grep -q "BEGIN ENCRYPTED PRIVATE KEY" "$d/host1.pem"
    check "$e: ... with the same passphrase, signing" sign "$d/host1.pem" "$d/h1.sig" -passin pass:secret
    check "$e: ... a signature that verifies" verify "$d/k.pub" "$d/h1.sig"
    check_eq "$e: ... status shows the shard's range" \
        "$(field "$d/host1.pem" range_end -passin pass:secret)" "$half"
    check "$e: move -passout re-encrypts with another passphrase" KT move --in "$d/host2.pem" \
        --state "$d/new/h2.state" -passin pass:secret -passout pass:other --out "$d/host2b.pem"
    check "$e: ... which signs" sign "$d/host2b.pem" "$d/h2.sig" -passin pass:other
    check_failso "$e: ... the old key file signs nothing" sign "$d/host2.pem" "$d/none.sig" -passin pass:secret
    check "$e: ... its state is gone" grep -q "signature state file is missing" "$WORK/e"

    # a damaged state (a bit of the current slot flipped) and another key's
    cp "$d/new/h1.state" "$d/bad.state"
    flip_bit "$d/bad.state" 600
    check_failso "$alg: status of a damaged state fails" KT status "$d/bad.state"
    check "$alg: ... saying it is unusable and why" grep -q "UNUSABLE:     signature state file is corrupt" "$WORK/o"
    check_eq "$alg: ... --json: ok false" "$(field "$d/bad.state" ok)" False
    genkey "$alg" "$d/other.pem" 2>/dev/null
    cp "$d/other.pem.state" "$d/new/h2.state"
    check_failso "$alg: status of a key whose state is another key's fails" KT status -passin pass:other "$d/host2b.pem"
    check "$alg: ... saying so" grep -q "the file is another key's state" "$WORK/o"
}
for alg in XMSS XMSSMT HSS; do enc_life "$alg"; done

# --- a one-time key: status, and no move once it is spent ---
d="$WORK/wots"
mkdir -p "$d"
genkey WOTSP "$d/k.pem" 2>/dev/null
check_eq "WOTSP: status: 1 of 1 left" "$(field "$d/k.pem" remaining)/$(field "$d/k.pem" key_signatures)" 1/1
check "WOTSP: signs" sign "$d/k.pem" "$d/s"
check_failso "WOTSP: a spent key's state is not moved" KT move --in "$d/k.pem" --state "$d/w2.state"
check "WOTSP: ... saying why" grep -q "is spent to its end: nothing left to move" "$WORK/e"
check "WOTSP: ... nothing made" test ! -e "$d/w2.state"

# --- list ---
checko "list" KT list
check_eq "list: every set once (21 XMSS, 56 XMSS^MT, 21 WOTS+, 80 LMS)" "$(($(wc -l <"$WORK/out") - 1))" 178
check "list: XMSS-SHA2_10_256 approved" grep -Eq "^XMSS-SHA2_10_256 +XMSS +2500 +2\^10 .* yes$" "$WORK/o"
check "list: SHA-512 sets not approved" grep -Eq "^XMSS-SHA2_10_512 .* no$" "$WORK/o"
check "list: SHAKE256/192 sets approved" grep -Eq "^XMSSMT-SHAKE256_20/4_192 .* yes$" "$WORK/o"
check "list: LMS SHA-256/192 approved" grep -Eq "^LMS_SHA256_M24_H10/LMOTS_SHA256_N24_W4 +HSS .* yes$" "$WORK/o"
check "list: WOTS+ alone not approved" grep -Eq "^WOTSP-SHA2_256 .* no$" "$WORK/o"
check "list --json" KT list --json
check_eq "list --json: 178 sets, 124 approved (12 XMSS, 32 XMSS^MT, 80 LMS)" "$(python3 -c "import json; r=json.load(open('$WORK/out')); print(len(r), sum(x['sp800_208'] for x in r))")" "178 124"
for s in XMSS:XMSS-SHA2_10_256 XMSSMT:XMSSMT-SHA2_20/4_256 HSS:LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W8; do
    a=${s%%:*} p=${s#*:}
    openssl genpkey "${PROV[@]}" -algorithm "$a" -pkeyopt "param:$p" -pkeyopt "state:$WORK/l.state" \
        -out "$WORK/l.pem" 2>/dev/null && sign "$WORK/l.pem" "$WORK/l.sig"
    check_eq "list: $p's signature size is a real one's" \
        "$(KT list | awk -v p="$p" '$1 == p { print $3 }')" "$(wc -c <"$WORK/l.sig")"
    rm -f "$WORK/l.pem" "$WORK/l.state" "$WORK/l.state.cache"
done

# --- unknown set names: the nearest ones ---
near() {
    check_failso "unknown $1 set refused" openssl genpkey "${PROV[@]}" -algorithm "$1" -pkeyopt "param:$2" -out "$WORK/u.pem"
    check "... naming the nearest: $3" grep -qF "nearest: $3" "$WORK/e"
}
near XMSS XMSS-SHA2_10_265 "XMSS-SHA2_10_256, "
near XMSSMT XMSSMT-SHA2_20/3_256 "XMSSMT-SHA2_20/2_256, XMSSMT-SHA2_20/4_256"
near HSS LMS_SHA256_M32_H11/LMOTS_SHA256_N32_W4 "LMS_SHA256_M32_H10, "
near HSS LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W5 "LMOTS_SHA256_N32_W1, "
near WOTSP WOTSP-SHA2_265 "WOTSP-SHA2_256, "

# --- warn-remaining ---
d="$WORK/warn"
mkdir -p "$d"
genkey XMSS "$d/k.pem" 2>/dev/null
check "warn-remaining: a signature at or above the mark is quiet" sign "$d/k.pem" "$d/s" -pkeyopt warn-remaining:1023
check_eq "warn-remaining: ... no warning" "$(cat "$WORK/err")" ""
checko "warn-remaining: one below it warns" sign "$d/k.pem" "$d/s" -pkeyopt warn-remaining:1023
check "warn-remaining: ... naming the state and the count" grep -qF \
    "fastsig: warning: the key of state file $d/k.pem.state has 1022 signatures left (below warn_remaining 1023)" "$WORK/e"
check "warn-remaining: remaining stays exact" sh -c "openssl pkey ${PROV[*]} -in '$d/k.pem' -noout -text | grep -q 'remaining 1022 of 1024'"
provider_cnf "$d/cnf" "warn_remaining = 2000"
OPENSSL_CONF="$d/cnf" "$SIGN_HOLD" "$d/k.pem" 5 "$d/ready" 2>"$d/err" &
p=$!; for _ in $(seq 300); do [ -e "$d/ready" ] && break; sleep 0.1; done; kill $p; wait $p
check_eq "warn-remaining from the config: once per process (6 signatures)" "$(grep -c "fastsig: warning" "$d/err")" 1
check "warn-remaining: the key parameter overrides the config (0: off)" env OPENSSL_CONF="$d/cnf" \
    openssl pkeyutl -sign -rawin -inkey "$d/k.pem" -in "$WORK/msg" -out "$d/s" -pkeyopt warn-remaining:0
check_eq "warn-remaining: ... no warning" "$(grep -c "fastsig: warning" "$WORK/err")" 0
provider_cnf "$d/bad.cnf" "warn_remaining = lots"
check_fails "warn-remaining: a config value that is no number fails the load" env OPENSSL_CONF="$d/bad.cnf" \
    openssl pkeyutl -sign -rawin -inkey "$d/k.pem" -in "$WORK/msg" -out "$d/s"

echo "    (${SECONDS}s)"
summary keylife
