#!/usr/bin/env bash
# statelife.sh - when a stateful key opens its state: decoding a private key
# (pkey -pubout, pkeyutl -verify with the private key) opens no state file
# and waits on no lock; the first signature opens it and waits for another
# process's lock a bounded time (FASTSIG_STATE_LOCK_TIMEOUT, state_lock_timeout),
# then fails naming the file. Also the key-id registry: one state per key,
# one per seed under any parameter set, and its high-water marks: a state
# file restored from a backup is refused.
# Usage: statelife.sh HOLD_LOCK WATCH_OPEN (the helper programs beside it).
source "$(dirname "$0")/lib.sh"
HOLD_LOCK=$1
WATCH_OPEN=$2
# a hang guard, not a timing assertion: a command that waits on a lock
# forever is killed and so fails its check
GUARD=(timeout 60)

trap '[ -n "$HOLDER" ] && kill "$HOLDER"; rm -rf "$WORK"' EXIT

lazy_state() {
    local alg=$1 d="$WORK/lazy-$1"
    mkdir -p "$d"
    genkey "$alg" "$d/k.pem" 2>/dev/null
    openssl pkey "${PROV[@]}" -in "$d/k.pem" -pubout -out "$d/k.pub"
    echo "a message" >"$d/msg"
    openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$d/k.pem" -in "$d/msg" -out "$d/msg.sig"

    # --- another process holds the state's lock (a signer mid-update) ---
    hold_lock "$d/k.pem.state"
    check "$alg: pkey -pubout does not wait on the state's lock" env FASTSIG_STATE_LOCK_TIMEOUT=600 \
        "${GUARD[@]}" openssl pkey "${PROV[@]}" -in "$d/k.pem" -pubout -out "$d/k2.pub"
    check "$alg: ... and gives the public key" cmp "$d/k.pub" "$d/k2.pub"
    check "$alg: pkeyutl -verify -inkey PRIVATE does not wait on it" env \
        FASTSIG_STATE_LOCK_TIMEOUT=600 "${GUARD[@]}" openssl pkeyutl "${PROV[@]}" -verify -rawin \
        -inkey "$d/k.pem" -in "$d/msg" -sigfile "$d/msg.sig"
    export FASTSIG_STATE_LOCK_TIMEOUT=0.2
    check_sign_refused "$alg: signing gives up after the lock timeout" \
        "signature state locked by another process" "$d/k.pem" "$d/msg" "$d/none.sig"
    check "$alg: ... naming the file and the wait" \
        grep -qF "state file $d/k.pem.state: locked by another process (waited 0.200 s)" "$WORK/prev.err"
    check "$alg: pkey -text waits a bounded time too" "${GUARD[@]}" openssl pkey "${PROV[@]}" \
        -in "$d/k.pem" -noout -text
    cp "$WORK/out" "$WORK/prev.out"
    check "$alg: ... and shows the state as locked" \
        grep -q "state: UNUSABLE (signature state locked by another process)" "$WORK/prev.out"
    unset FASTSIG_STATE_LOCK_TIMEOUT
    unhold
    if [ "$alg" = WOTSP ]; then # its one index is spent: the state opens and says so
        check_sign_refused "$alg: once the lock is free the state opens" \
            "one-time key already used" "$d/k.pem" "$d/msg" "$d/none.sig"
    else
        check "$alg: signing works once the lock is free" openssl pkeyutl "${PROV[@]}" -sign \
            -rawin -inkey "$d/k.pem" -in "$d/msg" -out "$d/msg2.sig"
    fi

    # --- decoding opens no file the key names ---
    # the state path now names a file that is no state of this key: decoding,
    # exporting the public key and verifying leave it alone (inotify)
    mv "$d/k.pem.state" "$d/saved.state"
    echo "someone else's file" >"$d/k.pem.state"
    check "$alg: pkey -pubout opens no file the key names" \
        "$WATCH_OPEN" "$d/k.pem.state" openssl pkey "${PROV[@]}" -in "$d/k.pem" -pubout -out "$d/k3.pub"
    check "$alg: pkeyutl -verify with the private key opens none either" \
        "$WATCH_OPEN" "$d/k.pem.state" openssl pkeyutl "${PROV[@]}" -verify -rawin \
        -inkey "$d/k.pem" -in "$d/msg" -sigfile "$d/msg.sig"
    check_eq "$alg: ... the file is unchanged" "$(cat "$d/k.pem.state")" "someone else's file"
    if [ "$alg" != WOTSP ]; then # the node cache is read at the first signature, not at decode
        check "$alg: pkey -pubout opens no node cache file either" \
            "$WATCH_OPEN" "$d/k.pem.state.cache" openssl pkey "${PROV[@]}" -in "$d/k.pem" -pubout \
            -out "$d/k5.pub"
    fi
    rm "$d/k.pem.state"
    mkfifo "$d/k.pem.state"
    check "$alg: a FIFO at the state path: pkey -pubout does not open it" "${GUARD[@]}" \
        "$WATCH_OPEN" "$d/k.pem.state" openssl pkey "${PROV[@]}" -in "$d/k.pem" -pubout -out "$d/k4.pub"
    check_sign_refused "$alg: ... signing refuses it" "signature state path is not a regular file" \
        "$d/k.pem" "$d/msg" "$d/none.sig"
    rm "$d/k.pem.state"
    mv "$d/saved.state" "$d/k.pem.state"
}

lazy_state XMSS
lazy_state HSS
lazy_state WOTSP

# --- another user's state: refused, naming the file and why ---
# The attack: in a state directory others may write, anyone who knows the
# public key forges a state at index 0 and renames it into place. Here the
# forgery is the key's own first state, given to nobody (root only: the
# ownership case is reported skipped otherwise) with mode 0666.
d="$WORK/forged"
mkdir -p "$d"
genkey XMSS "$d/k.pem" 2>/dev/null
echo "a message" >"$d/msg"
cp -p "$d/k.pem.state" "$d/fresh.state" # next index 0
check "forged state: the key signs once (index 0)" openssl pkeyutl "${PROV[@]}" -sign -rawin \
    -inkey "$d/k.pem" -in "$d/msg" -out "$d/msg.sig"
mv "$d/k.pem.state" "$d/own.state"
cp "$d/fresh.state" "$d/forged.state"
chmod 0666 "$d/forged.state"
if [ "$(id -u)" = 0 ]; then
    chown 65534:65534 "$d/forged.state"
    why="owned by uid 65534, not by this user (uid 0)"
else
    echo "skip - a state file owned by another user is refused (needs root to chown)"
    why="writable by group or others (mode 0666)"
fi
mv "$d/forged.state" "$d/k.pem.state"
check_sign_refused "a state file owned by another user, writable by others, is refused" \
    "signature state file or directory is open to other users" "$d/k.pem" "$d/msg" "$d/none.sig"
check "... naming the file and why" grep -qF "state file $d/k.pem.state: $why" "$WORK/prev.err"
[ "$(id -u)" = 0 ] && chown 0:0 "$d/k.pem.state"
check_sign_refused "a state file writable by others is refused" \
    "signature state file or directory is open to other users" "$d/k.pem" "$d/msg" "$d/none.sig"
check "... naming the file and its mode" grep -qF \
    "state file $d/k.pem.state: writable by group or others (mode 0666)" "$WORK/prev.err"
mv "$d/own.state" "$d/k.pem.state"
chmod 0777 "$d"
check_sign_refused "a state directory writable by others without the sticky bit is refused" \
    "signature state file or directory is open to other users" "$d/k.pem" "$d/msg" "$d/none.sig"
check "... naming the directory and its mode" grep -qF \
    "state directory $d: writable by group or others without the sticky bit (mode 0777)" \
    "$WORK/prev.err"
chmod 1777 "$d"
check "a sticky state directory (like /tmp) is fine" openssl pkeyutl "${PROV[@]}" -sign -rawin \
    -inkey "$d/k.pem" -in "$d/msg" -out "$d/msg2.sig"

# --- the lock timeout setting ---
d="$WORK/timeout"
mkdir -p "$d"
genkey XMSSMT "$d/k.pem" 2>/dev/null
echo "a message" >"$d/msg"
for bad in abc -1 1.2345 1e3 "" 86401; do
    [ -z "$bad" ] && continue
    check_fails "FASTSIG_STATE_LOCK_TIMEOUT=$bad is refused" env FASTSIG_STATE_LOCK_TIMEOUT="$bad" \
        openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$d/k.pem" -in "$d/msg" -out "$d/x.sig"
    cp "$WORK/err" "$WORK/prev.err"
    check "... naming it" grep -qF "FASTSIG_STATE_LOCK_TIMEOUT=$bad: not a number of seconds" \
        "$WORK/prev.err"
done
provider_cnf "$d/fastsig.cnf" "state_lock_timeout = 0.05"
hold_lock "$d/k.pem.state"
check_fails "state_lock_timeout in the provider's config section" env OPENSSL_CONF="$d/fastsig.cnf" \
    openssl pkeyutl -sign -rawin -inkey "$d/k.pem" -in "$d/msg" -out "$d/x.sig"
cp "$WORK/err" "$WORK/prev.err"
check "... is the wait" grep -qF "locked by another process (waited 0.050 s)" "$WORK/prev.err"
check_fails "FASTSIG_STATE_LOCK_TIMEOUT overrides it" env OPENSSL_CONF="$d/fastsig.cnf" \
    FASTSIG_STATE_LOCK_TIMEOUT=0 openssl pkeyutl -sign -rawin -inkey "$d/k.pem" -in "$d/msg" \
    -out "$d/x.sig"
cp "$WORK/err" "$WORK/prev.err"
check "... (no wait at all)" grep -qF "locked by another process (waited 0.000 s)" "$WORK/prev.err"
unhold

# --- the key-id registry: one fresh state per key ---
registry() {
    local alg=$1 param=$2 seedlen=$3 d="$WORK/reg-$1"
    local seed reg
    seed=$(head -c "$seedlen" /dev/urandom | od -An -tx1 -v | tr -d ' \n')
    reg="$FASTSIG_STATE_DIR/registry"
    mkdir -p "$d"
    gen() { openssl genpkey "${PROV[@]}" -algorithm "$alg" -pkeyopt "param:$param" \
        -pkeyopt "seed:$seed" "$@"; }
    check "$alg: genpkey seed:S state:a" gen -pkeyopt "state:$d/a.state" -out "$d/a.pem"
    check_eq "$alg: ... registers the key id, naming its state" \
        "$(grep -rlx "$d/a.state" "$reg" | grep -cv '\.seed$')" 1
    check_eq "$alg: ... and its seed's fingerprint" \
        "$(grep -rlx "$d/a.state" "$reg" | grep -c '/[0-9a-f]\{64\}\.seed$')" 1
    check_fails "$alg: the same seed with another state path is refused" \
        gen -pkeyopt "state:$d/b.state" -out "$d/b.pem"
    cp "$WORK/err" "$WORK/prev.err"
    check "$alg: ... naming the state the key has" grep -qF \
        "key already registered with a signature state" "$WORK/prev.err"
    check "$alg: ... and its registry entry" grep -qF \
        "state file $d/a.state: holds this seed's one-time keys (registry entry $reg/" \
        "$WORK/prev.err"
    check "$alg: ... no second state made" test ! -e "$d/b.state"
    check_fails "$alg: ... nor with the default state path" gen -out "$d/c.pem"
    # a key made before seed entries existed has only its key id's entry:
    # that still refuses the same key
    local seedent
    seedent=$(grep -rlx "$d/a.state" "$reg" | grep '\.seed$')
    mv "$seedent" "$d/seed.away"
    check_fails "$alg: a key with only a key-id entry is refused too" \
        gen -pkeyopt "state:$d/b.state" -out "$d/b.pem"
    cp "$WORK/err" "$WORK/prev.err"
    check "$alg: ... naming its state and key-id entry" grep -qF \
        "state file $d/a.state: this key's state (registry entry $reg/" "$WORK/prev.err"
    check "$alg: ... and leaves no seed entry" test ! -e "$seedent"
    mv "$d/seed.away" "$seedent"
    # a crash between the registry entry and the state file leaves a key
    # registered without a state: refused too, naming the entry
    mv "$d/a.state" "$d/a.moved"
    check_fails "$alg: a registered key whose state is missing is refused" \
        gen -pkeyopt "state:$d/b.state" -out "$d/b.pem"
    cp "$WORK/err" "$WORK/prev.err"
    check "$alg: ... naming the entry and the missing state" grep -qF \
        "names state file $d/a.state, which is missing" "$WORK/prev.err"
    check "$alg: ... no state made" test ! -e "$d/b.state"
    mv "$d/a.moved" "$d/a.state"
    # a generation that fails to make its state leaves no entry behind
    local other
    other=$(head -c "$seedlen" /dev/urandom | od -An -tx1 -v | tr -d ' \n')
    check_fails "$alg: genpkey with an impossible state path fails" openssl genpkey "${PROV[@]}" \
        -algorithm "$alg" -pkeyopt "param:$param" -pkeyopt "seed:$other" \
        -pkeyopt "state:$d/a.state/x.state" -out "$d/x.pem"
    check "$alg: ... and the key can then be made" openssl genpkey "${PROV[@]}" \
        -algorithm "$alg" -pkeyopt "param:$param" -pkeyopt "seed:$other" \
        -pkeyopt "state:$d/x.state" -out "$d/x.pem"
    # a random key registers too
    local before
    local marks
    before=$(ls "$reg" | grep -vc '\.mark-')
    marks=$(ls "$reg" | grep -c '\.mark-')
    check "$alg: genpkey with a random seed" openssl genpkey "${PROV[@]}" -algorithm "$alg" \
        -pkeyopt "param:$param" -pkeyopt "state:$d/r.state" -out "$d/r.pem"
    check_eq "$alg: ... registers it (key id and seed)" "$(ls "$reg" | grep -vc '\.mark-')" \
        "$((before + 2))"
    # its high-water mark file is made with its state, so that signing creates no file
    check_eq "$alg: ... and makes its mark file" "$(ls "$reg" | grep -c '\.mark-')" \
        "$((marks + 1))"
}
registry WOTSP WOTSP-SHA2_256 96
registry XMSS XMSS-SHA2_10_256 96
registry HSS LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4 48 # SEED (32) || I (16)

# --- one seed, one state under any parameter set: the one-time keys (WOTS+,
# LM-OTS) come from the seeds and the address only, the key id changes with
# the set: another set of a registered seed is refused, before its trees ---
one_seed() {
    local seedlen=$1 first_alg=$2 first=$3 d="$WORK/one-seed-$2" seed alg param
    shift 3
    seed=$(head -c "$seedlen" /dev/urandom | od -An -tx1 -v | tr -d ' \n')
    mkdir -p "$d"
    check "$first from seed S" openssl genpkey "${PROV[@]}" -algorithm "$first_alg" \
        -pkeyopt "param:$first" -pkeyopt "seed:$seed" -pkeyopt "state:$d/first.state" \
        -out "$d/first.pem"
    while [ $# -gt 0 ]; do
        alg=$1 param=$2
        shift 2
        check_fails "one seed under another parameter set is refused: $param after $first" \
            openssl genpkey "${PROV[@]}" -algorithm "$alg" -pkeyopt "param:$param" \
            -pkeyopt "seed:$seed" -pkeyopt "state:$d/again.state" -out "$d/again.pem"
        cp "$WORK/err" "$WORK/prev.err"
        check "... naming the first key's state ($param)" grep -qF \
            "state file $d/first.state: holds this seed's one-time keys (registry entry" \
            "$WORK/prev.err"
        check "... no state made ($param)" test ! -e "$d/again.state"
    done
}
one_seed 96 XMSS XMSS-SHA2_10_256 XMSS XMSS-SHA2_16_256 XMSSMT XMSSMT-SHA2_20/2_256 \
    WOTSP WOTSP-SHA2_256
one_seed 48 HSS LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8 HSS LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W8 \
    HSS LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8,LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8

# --- a state file rolled back: an old copy restored alone is refused ---
rollback() {
    local alg=$1 signs=$2 d="$WORK/rb-$1" i
    mkdir -p "$d"
    genkey "$alg" "$d/k.pem" 2>/dev/null
    echo "a message" >"$d/msg"
    cp "$d/k.pem.state" "$d/backup.state" # next 0
    for i in $(seq "$signs"); do
        check "$alg: signature $i" openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$d/k.pem" \
            -in "$d/msg" -out "$d/$i.sig"
    done
    cp "$d/backup.state" "$d/k.pem.state" # the backup restored, no signer running
    check_sign_refused "$alg: the restored backup is refused" \
        "signature state file was rolled back" "$d/k.pem" "$d/msg" "$d/again.sig"
    check "$alg: ... naming the file, its next and the registry's mark" grep -qF \
        "state file $d/k.pem.state was rolled back (next 0 below the registry's high-water mark $signs, registry file $FASTSIG_STATE_DIR/registry/" \
        "$WORK/prev.err"
    check "$alg: ... and the state is left as it is" cmp "$d/backup.state" "$d/k.pem.state"
}
rollback XMSS 3
rollback WOTSP 1
rollback HSS 2

# the registry lives in the default state directory, needed even with state:
touch "$WORK/plain"
check_fails "genpkey with state: but no usable default state directory fails" env \
    FASTSIG_STATE_DIR="$WORK/plain/sub" openssl genpkey "${PROV[@]}" -algorithm WOTSP \
    -pkeyopt "state:$WORK/nodir.state" -out "$WORK/nodir.pem"
cp "$WORK/err" "$WORK/prev.err"
check "... naming it and why" grep -qF "state directory $WORK/plain/sub: Not a directory" \
    "$WORK/prev.err"
check "... no state made" test ! -e "$WORK/nodir.state"

# a state path in a key must be absolute: a relative one would name another
# file from each working directory (its leading '/' made '.', same length;
# openssl 3.0's store drops the decoder's reason: the EVP test checks the text)
mkdir -p "$WORK/rel"
genkey WOTSP "$WORK/rel/k.pem" 2>/dev/null
openssl pkey "${PROV[@]}" -in "$WORK/rel/k.pem" -outform DER -out "$WORK/rel/k.der"
at=$(grep -obUaF "$WORK/rel/k.pem.state" "$WORK/rel/k.der" | head -1 | cut -d: -f1)
printf . | dd of="$WORK/rel/k.der" bs=1 seek="$at" conv=notrunc 2>/dev/null
check_fails "a key with a relative state path is refused" openssl pkey "${PROV[@]}" -inform DER \
    -in "$WORK/rel/k.der" -noout

summary statelife
