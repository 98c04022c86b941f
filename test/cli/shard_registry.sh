#!/usr/bin/env bash
# shard_registry.sh - a shard carved by `fastsig-keytool shard` adds its
# state path to its key's registry entry (crypto/state/registryshard.c), so
# that `fastsig-keytool status PUB.pem` lists it wherever it lives: for XMSS
# and HSS, a shard in another directory, one named by -state, and shards
# with default names listed once; the line follows a move; a key whose
# registry is another directory's still shards (no line, no warning).
source "$(dirname "$0")/lib.sh"
KEYTOOL=${FASTSIG_KEYTOOL:?FASTSIG_KEYTOOL must name the fastsig-keytool binary}
KT() { "$KEYTOOL" "$1" -provider-path "$MODULE_DIR" "${@:2}"; }
# states PUB: the state files status lists for the public key, one a line, sorted
states() {
    KT status --json "$1" | python3 -c \
        "import json,sys; print('\n'.join(sorted(o['state'] for o in json.load(sys.stdin))))"
}
# entry KEY: the registry entry of KEY's key id (its lines)
entry() { cat "$FASTSIG_STATE_DIR/registry/$(KT status --json "$1" | python3 -c \
    "import json,sys; print(json.load(sys.stdin)[0]['key_id'])")"; }

for alg in XMSS HSS; do
    d="$WORK/$alg"
    mkdir -p "$d/keys" "$d/far" "$d/named" "$d/moved"
    genkey "$alg" "$d/keys/k.pem" 2>/dev/null
    openssl pkey "${PROV[@]}" -in "$d/keys/k.pem" -pubout -out "$d/k.pub"
    check "$alg: a shard into another directory" KT shard --in "$d/keys/k.pem" --range 100-200 \
        --out-prefix "$d/far/s" -state "$d/far"
    check "$alg: a shard into a named state file" KT shard --in "$d/keys/k.pem" --range 200-300 \
        --out-prefix "$d/named/s" -state "$d/named/one.state"
    check "$alg: two shards with default names beside the key's state" KT shard \
        --in "$d/keys/k.pem" --count 2 --size 50 --out-prefix "$d/keys/s"
    far=$(ls "$d"/far/*.state)
    check_eq "$alg: the registry entry names the key's state, then each shard's" \
        "$(entry "$d/k.pub" | wc -l)/$(entry "$d/k.pub" | head -1)" "5/$d/keys/k.pem.state"
    check_eq "$alg: status PUB lists the key and its 4 shards, each once" "$(states "$d/k.pub")" \
        "$(printf '%s\n' "$far" "$d"/keys/*.state "$d/named/one.state" | sort)"
    check "$alg: a shard moved" KT move --in "$d/named/s1.pem" --state "$d/moved/one.state"
    check "$alg: ... status PUB lists it where it went" grep -qx "$d/moved/one.state" \
        <(states "$d/k.pub")
    check_eq "$alg: ... and not where it was" "$(states "$d/k.pub" | grep -c "$d/named/")" 0
done

# a key generated with another default directory: no entry here, the shard is made
d="$WORK/elsewhere"
mkdir -p "$d"
FASTSIG_STATE_DIR="$d/sd" genkey XMSS "$d/k.pem" 2>/dev/null
check "a key registered in another directory: shards" KT shard --in "$d/k.pem" --range 0-10 \
    --out-prefix "$d/s" -state "$d/s.state"
check_eq "  without a warning" "$(grep -c warning "$WORK/err")" 0
check_eq "  and no entry made here" "$(ls "$FASTSIG_STATE_DIR/registry" | grep -cx "$(KT status \
    --json "$d/k.pem" | python3 -c "import json,sys; print(json.load(sys.stdin)[0]['key_id'])")")" 0
summary shard_registry
