#!/usr/bin/env bash
# keytool_state.sh - fastsig-keytool state inspect / advance / recreate (the
# operator's recovery, doc/state.md section 6) with the real openssl, on an
# XMSS, an XMSS^MT and an HSS key and a shard of each: a healthy and a torn
# state inspected (verdict, exit status, JSON), advance forward, backwards
# refused, refused while another process holds the state's lock, past a
# signature's index; recreate of a torn state refused below the highest
# slot + margin and on a healthy state, then done; a lost state and
# registry recovered from the signatures seen; a rolled-back state and a
# foreign key reported. Arguments: hold_lock (holds a state's lock).
source "$(dirname "$0")/lib.sh"
HOLD_LOCK=${1:?usage: keytool_state.sh HOLD_LOCK}
KEYTOOL=${FASTSIG_KEYTOOL:?FASTSIG_KEYTOOL must name the fastsig-keytool binary}
ST=("$KEYTOOL" state)
PP=(-provider-path "$MODULE_DIR")
echo "a message" >"$WORK/msg"

sign() { openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$1" -in "$WORK/msg" -out "$2"; }
key_index() { openssl pkey "${PROV[@]}" -in "$1" -noout -text | sed -n 's/^state: index \([0-9]*\),.*/\1/p'; }
# status DESCRIPTION WANT COMMAND...: the command's exit status is WANT
status() {
    local d=$1 want=$2 rc=0
    shift 2
    "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
    cp "$WORK/out" "$WORK/st.out"
    cp "$WORK/err" "$WORK/st.err"
    check_eq "$d (exit $want)" "$rc" "$want"
    [ "$rc" = "$want" ] || sed 's/^/    /' "$WORK/st.err" "$WORK/st.out" | head -10
}
says() { check "  saying '$1'" grep -qF -- "$1" "$WORK/st.out" "$WORK/st.err"; }
# be N SIG: the big-endian number in SIG's first N bytes
be() { od -An -tu1 -N "$1" "$2" | awk '{ v = 0; for (i = 1; i <= NF; i++) v = v * 256 + $i; print v }'; }
# tear STATE SLOT: the slot's seq field garbled, as a write cut short by a power loss
tear() { printf 'torn' | dd of="$1" bs=1 seek=$(($2 * 512 + 20)) conv=notrunc 2>/dev/null; }

# sig_index ALG SIG: the index the signature was made with, read here
# independently of the keytool (XMSS: 4 bytes, XMSS^MT 20/4: 3 bytes, HSS
# H5/H5 W4: level 0's q above level 1's, as in shard.sh)
sig_index() {
    case $1 in
        XMSS) be 4 "$2" ;;
        XMSSMT) be 3 "$2" ;;
        HSS) echo $(($(od -An -tu1 -j 4 -N4 "$2" | awk '{ print $1*16777216+$2*65536+$3*256+$4 }') * 32
                     + $(od -An -tu1 -j 2408 -N4 "$2" | awk '{ print $1*16777216+$2*65536+$3*256+$4 }'))) ;;
    esac
}

# one_key ALG KEY STATE: every check on KEY (a whole key or a shard) and its state
one_key() {
    local alg=$1 key=$2 state=$3 before tag
    tag="$alg $(basename "$key")"
    sign "$key" "$WORK/s.a" && sign "$key" "$WORK/s.b"

    # inspect: healthy
    status "$tag: inspect a healthy state" 0 "${ST[@]}" inspect "$state"
    says "verdict: healthy"
    status "$tag: inspect --json" 0 "${ST[@]}" inspect "$state" --json
    says '"verdict": "healthy"'
    check "$tag: ... one JSON object" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/st.out"

    # advance: forward, back refused, locked refused, past a signature
    before=$(key_index "$key")
    status "$tag: advance --by 10" 0 "${ST[@]}" advance "$state" --by 10
    check_eq "$tag: ... the key's index moved by 10" "$(key_index "$key")" $((before + 10))
    status "$tag: ... the registry's mark followed" 0 "${ST[@]}" inspect "$state" --json
    says "\"mark\": $((before + 10))"
    status "$tag: advance --to 1 (backwards) refused" 1 "${ST[@]}" advance "$state" --to 1
    says "a state never moves back"
    check_eq "$tag: ... the index unchanged" "$(key_index "$key")" $((before + 10))
    hold_lock "$state"
    status "$tag: advance while another process holds the lock refused" 1 \
        env FASTSIG_STATE_LOCK_TIMEOUT=0.2 "${ST[@]}" advance "$state" --by 1
    says "locked by another process"
    unhold
    check_eq "$tag: ... the index unchanged" "$(key_index "$key")" $((before + 10))
    status "$tag: advance --to the same index: nothing to write" 0 "${ST[@]}" advance "$state" --to $((before + 10))
    status "$tag: advance past a signature already behind" 0 "${ST[@]}" advance "$state" \
        --past-signature "$WORK/s.b" --in "$key" "${PP[@]}"
    says "signature $WORK/s.b: index $(sig_index "$alg" "$WORK/s.b")"
    says "already past it"

    # a torn slot: repairable; recreate refused too low and on a healthy state
    sign "$key" "$WORK/s.c"
    cp "$state" "$WORK/good.state"
    tear "$state" 1
    status "$tag: inspect a torn state: repairable" 3 "${ST[@]}" inspect "$state"
    says "bad CRC"
    local high rep
    high=$("${ST[@]}" inspect "$state" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(max(s["next"] for s in d["slots"] if s["valid"]))')
    rep=$((high + 64))
    says "recreate --in KEY --at $rep"
    check_sign_refused "$tag: the torn state refuses to sign" "signature state file is corrupt" \
        "$key" "$WORK/msg" "$WORK/none.sig"
    status "$tag: advance of a torn state refused" 1 "${ST[@]}" advance "$state" --by 1
    says "not healthy"
    status "$tag: recreate below the highest slot + 64 refused" 1 "${ST[@]}" recreate --in "$key" \
        --at $((rep - 1)) "${PP[@]}"
    says "is below $high + 64"
    status "$tag: recreate at the highest slot + 64" 0 "${ST[@]}" recreate --in "$key" --at "$rep" "${PP[@]}"
    status "$tag: ... healthy again" 0 "${ST[@]}" inspect "$state"
    check_eq "$tag: ... the key signs from there" "$(sign "$key" "$WORK/s.d" && sig_index "$alg" "$WORK/s.d")" "$rep"
    status "$tag: recreate of a healthy state refused" 1 "${ST[@]}" recreate --in "$key" --at $((rep + 70)) "${PP[@]}"
    says "is healthy"

    # a state restored from a copy: rolled back against the registry's mark;
    # its repair is an advance past the mark + 64
    cp "$WORK/good.state" "$state"
    status "$tag: inspect a rolled-back state: repairable" 3 "${ST[@]}" inspect "$state"
    says "rolled back"
    says "advance $state --to $((rep + 1 + 64))"
    status "$tag: advance of a rolled-back state below the mark + 64 refused" 1 "${ST[@]}" \
        advance "$state" --to $((rep + 1 + 63))
    says "was rolled back"
    status "$tag: recreate of the rolled-back (well-formed) state refused" 1 "${ST[@]}" recreate \
        --in "$key" --at $((rep + 70)) "${PP[@]}"
    says "is healthy"
    status "$tag: advance past the mark + 64" 0 "${ST[@]}" advance "$state" --to $((rep + 1 + 64))
    status "$tag: ... healthy again" 0 "${ST[@]}" inspect "$state"
}

for ALG in XMSS XMSSMT HSS; do
    d="$WORK/$ALG"
    mkdir -p "$d"
    genkey "$ALG" "$d/k.pem" 2>/dev/null || not_ok "$ALG: genpkey"
    one_key "$ALG" "$d/k.pem" "$d/k.pem.state"
    check "$ALG: a shard" "$KEYTOOL" shard --in "$d/k.pem" --out-prefix "$d/shard" --size 200 "${PP[@]}"
    one_key "$ALG" "$d/shard1.pem" "$(sed -n 's/.*, state //p' "$WORK/out")"

    # another key's state: broken for this key
    genkey "$ALG" "$d/other.pem" 2>/dev/null
    status "$ALG: inspect --in another key: broken" 4 "${ST[@]}" inspect "$d/k.pem.state" --in "$d/other.pem" "${PP[@]}"
    says "foreign key id"

    # lost state and registry: recreate from nothing, then past the signatures seen
    sign "$d/other.pem" "$WORK/o.1"; sign "$d/other.pem" "$WORK/o.2"; sign "$d/other.pem" "$WORK/o.3"
    rm "$d/other.pem.state"
    status "$ALG: recreate of a missing state without --state-lost refused" 1 "${ST[@]}" recreate \
        --in "$d/other.pem" --at 0 "${PP[@]}"
    says "add --state-lost"
    status "$ALG: recreate a lost state (empty registry)" 0 "${ST[@]}" recreate --in "$d/other.pem" \
        --at 1 --state-lost --state-dir "$d" "${PP[@]}"
    status "$ALG: advance past the last signature seen" 0 "${ST[@]}" advance "$d/other.pem.state" \
        --past-signature "$WORK/o.3" --in "$d/other.pem" --state-dir "$d" "${PP[@]}"
    check_eq "$ALG: ... the index is one past it" "$(key_index "$d/other.pem")" $(($(sig_index "$ALG" "$WORK/o.3") + 1))
    status "$ALG: a signature of another key refused" 1 "${ST[@]}" advance "$d/k.pem.state" \
        --past-signature "$WORK/o.3" --in "$d/other.pem" "${PP[@]}"
    says "belongs to another key"
done
# an encrypted key: recreate and --past-signature read it with -passin
d="$WORK/enc"; mkdir -p "$d"
openssl genpkey "${PROV[@]}" -algorithm XMSS -pkeyopt "state:$d/e.state" -aes-256-cbc -pass pass:pw \
    -out "$d/e.pem" 2>/dev/null || not_ok "encrypted genpkey"
openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$d/e.pem" -passin pass:pw -in "$WORK/msg" -out "$d/e.sig"
tear "$d/e.state" 0
status "encrypted XMSS: recreate with a wrong passphrase fails" 1 "${ST[@]}" recreate --in "$d/e.pem" \
    --at 70 -passin pass:nope "${PP[@]}"
status "encrypted XMSS: recreate with -passin" 0 "${ST[@]}" recreate --in "$d/e.pem" --at 70 -passin pass:pw "${PP[@]}"
status "encrypted XMSS: advance past a signature with -passin" 0 "${ST[@]}" advance "$d/e.state" \
    --past-signature "$d/e.sig" --in "$d/e.pem" -passin pass:pw "${PP[@]}"
says "index 0"
status "usage: advance without a target" 2 "${ST[@]}" advance "$WORK/x.state"
status "a missing state: inspect fails" 1 "${ST[@]}" inspect "$WORK/none.state"
says "missing"
summary keytool_state
