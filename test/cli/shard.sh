#!/usr/bin/env bash
# shard.sh - fastsig-keytool shard with the real openssl binary, for each
# kind with shards (rows: XMSS, and HSS L = 2 H5/H5 W4; both keys of 1024
# indices): shards by count and size, by range, of a shard, into a named
# state file; the parent and shards signing at once; `pkey -text`; a forged
# shard state refused; keytool runs SIGKILLed at random times (30;
# FASTSIG_SOAK=1: 1000), then every key signs until done: no index twice.
# Then an encrypted XMSS^MT key (its shards encrypted unless -nocrypt), the
# shard keys' mode under any umask, and runs refused before the parent moves
# (an existing key file, a missing directory): nothing spent.
source "$(dirname "$0")/lib.sh"
SECONDS=0
KEYTOOL=${FASTSIG_KEYTOOL:?FASTSIG_KEYTOOL must name the fastsig-keytool binary}
KT=("$KEYTOOL" shard -provider-path "$MODULE_DIR")
TOP=$WORK

# sign KEY OUT [PASSIN...]: one signature of msg
sign() { local key=$1 out=$2; shift 2
    openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$key" "$@" -in "$WORK/msg" -out "$out"; }
# be32 SIG OFFSET: the big-endian 32-bit number at OFFSET
be32() { od -An -tu1 -j "$2" -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }'; }
# index SIG: the signature's index, for the row's kind (ALG): XMSS's first 4
# bytes; HSS's level-0 leaf (after u32str(L-1)) above its level-1 leaf,
# which follows level 0's LMS signature (2348 bytes) and level 1's public
# key (56 bytes)
index() {
    case $ALG in
        HSS) echo $(($(be32 "$1" 4) * 32 + $(be32 "$1" 2408))) ;;
        *) be32 "$1" 0 ;;
    esac
}
# sign_loop KEY N TAG: N signatures to $WORK/sig.TAG.<i>, stops at a refusal
sign_loop() {
    for i in $(seq "$3" "$(($3 + $2 - 1))"); do
        sign "$1" "$WORK/sig.$i" 2>/dev/null || { rm -f "$WORK/sig.$i"; break; }
    done
}
# key_index KEY: the key's next index, from `pkey -text`'s state line
key_index() { openssl pkey "${PROV[@]}" -in "$1" -noout -text | sed -n 's/^state: index \([0-9]*\),.*/\1/p'; }
# spends_nothing DESCRIPTION WHY KEY ARGS...: a keytool run on KEY that fails
# saying WHY, and leaves KEY's index and the state files in $WORK as they were
spends_nothing() {
    local d=$1 why=$2 key=$3 before states pems
    shift 3
    before=$(key_index "$key")
    states=$(ls "$WORK" | grep -c '\.state$')
    pems=$(ls "$WORK" | grep -c '\.pem')
    check_fails "$d" "${KT[@]}" --in "$key" "$@"
    cp "$WORK/err" "$WORK/kt.err"
    check "  saying '$why'" grep -q "$why" "$WORK/kt.err"
    check_eq "  the parent's index unchanged" "$(key_index "$key")" "$before"
    check_eq "  no orphan state file" "$(ls "$WORK" | grep -c '\.state$')" "$states"
    # keytool writes a key whole or not at all (a temporary name, then linked)
    check_eq "  no new key file, empty or partial" "$(ls "$WORK" | grep -c '\.pem')" "$pems"
}
# kt DESCRIPTION ARGS...: a keytool run that must succeed; its output in $WORK/kt.out
kt() { local d=$1; shift; check "$d" "${KT[@]}" "$@"; cp "$WORK/out" "$WORK/kt.out"; }
# all_sigs_ok: every $WORK/sig.* verifies under the parent's public key and
# no index appears twice
all_sigs_ok() {
    local bad=0 s
    for s in "$WORK"/sig.*; do
        openssl pkeyutl "${PROV[@]}" -verify -rawin -pubin -inkey "$WORK/pub.pem" -in "$WORK/msg" \
            -sigfile "$s" >/dev/null 2>&1 || bad=$((bad + 1))
        index "$s"
    done >"$WORK/indices"
    check_eq "$1: every signature verifies under the one public key" "$bad" 0
    check_eq "$1: no index twice" "$(sort -n "$WORK/indices" | uniq -d | head -3 | tr '\n' ' ')" ""
}

# row ALG HALF2: the checks below for a key of ALG, in a folder of its own;
# HALF2: the second half of a 100-index shard split in two (inner
# boundaries rounded down to the kind's shard-align where a half is larger)
row() {
    local ALG=$1 HALF2=$2 WORK=$TOP/$1
    mkdir -p "$WORK"
    printf 'a message' >"$WORK/msg"
    echo "# $ALG"
    genkey "$ALG" "$WORK/k.pem"
    openssl pkey "${PROV[@]}" -in "$WORK/k.pem" -pubout -out "$WORK/pub.pem"
    kt "shard: 2 of 100 indices" --in "$WORK/k.pem" --count 2 --size 100 --out-prefix "$WORK/sh"
    check "shard: says what it wrote" grep -q "sh2.pem: indices 100-200, state $WORK/.*\.100-200\.state" "$WORK/kt.out"
    openssl pkey "${PROV[@]}" -in "$WORK/sh2.pem" -noout -text >"$WORK/text"
    check "pkey -text: the shard's range" grep -q "^shard: indices 100 to 199 (100 of the key's 1024)" "$WORK/text"
    check "pkey -text: what is left of it" grep -q "^state: index 100, remaining 100 of 100 signatures" "$WORK/text"
    openssl pkey "${PROV[@]}" -in "$WORK/k.pem" -noout -text >"$WORK/text"
    check "pkey -text: the parent goes on after the shards" grep -q "^state: index 200, remaining 824" "$WORK/text"
    check_fails "pkey -text: a whole key shows no range" grep -q "^shard:" "$WORK/text"

    # the parent (a key without a range) and both shards sign at once
    sign_loop "$WORK/k.pem" 12 100 &
    sign_loop "$WORK/sh1.pem" 12 200 &
    sign_loop "$WORK/sh2.pem" 12 300 &
    wait
    check_eq "parent and 2 shards at once: 36 signatures" "$(ls "$WORK"/sig.* | wc -l)" 36
    all_sigs_ok "parent and 2 shards at once"
    check_eq "shard 1 signed inside [0, 100)" "$(for s in "$WORK"/sig.2*; do index "$s"; done | awk '$1 >= 100' | wc -l)" 0

    # --range: inside the unspent part only
    check "shard --range 600-700" "${KT[@]}" --in "$WORK/k.pem" --range 600-700 --out-prefix "$WORK/r"
    check_fails "shard --range of spent indices refused" "${KT[@]}" --in "$WORK/k.pem" --range 650-660 --out-prefix "$WORK/r2"
    cp "$WORK/err" "$WORK/kt.err"
    check "  saying why" grep -q "not among the key's unspent indices" "$WORK/kt.err"
    check_fails "shard --range past the end refused" "${KT[@]}" --in "$WORK/k.pem" --range 1000-1025 --out-prefix "$WORK/r3"
    check_fails "shard --count of more than is left refused" "${KT[@]}" --in "$WORK/k.pem" --count 1000 --out-prefix "$WORK/r4"
    check_fails "an existing key file is not overwritten" "${KT[@]}" --in "$WORK/k.pem" --size 1 --out-prefix "$WORK/r"
    kt "shard of a shard: 2 equal halves" --in "$WORK/r1.pem" --count 2 --out-prefix "$WORK/rr"
    check "  inside the shard" grep -q "rr2.pem: indices $HALF2" "$WORK/kt.out"
    check "  the halves sign" sign "$WORK/rr1.pem" "$WORK/sig.400"
    check_eq "  at the first index of theirs" "$(index "$WORK/sig.400")" 600
    check_sign_refused "  the split shard has nothing left" "exhausted" "$WORK/r1.pem" "$WORK/msg" "$WORK/none.sig"
    check "  a shard's range exhausted names the state file" \
        grep -q "state file $WORK/.*\.600-700\.state: all indices of the shard's range 600-700 are spent" \
        "$WORK/prev.err"

    # a named state file; a forged one (another file's max) is refused
    kt "shard -state FILE" --in "$WORK/k.pem" --size 5 --out-prefix "$WORK/n" -state "$WORK/named.state"
    check "  written there" grep -q "state $WORK/named.state" "$WORK/kt.out"
    cp "$WORK/k.pem.state" "$WORK/named.state"
    check_sign_refused "a shard with another range's state refuses" "does not match" "$WORK/n1.pem" "$WORK/msg" "$WORK/none.sig"

    # SIGKILL at random times during shard runs; then the shards' ranges (their
    # state files) are disjoint and below the parent's next, every shard key
    # written signs at its first index, the parent signs on: no index twice
    rm -f "$WORK"/sig.*
    genkey "$ALG" "$WORK/kk.pem"
    openssl pkey "${PROV[@]}" -in "$WORK/kk.pem" -pubout -out "$WORK/pub.pem"
    runs=30 # the EVP and unit shard tests kill 100 carvers each; this drives the command
    [ "${FASTSIG_SOAK:-0}" != 0 ] && runs=1000
    start=$(date +%s%N)
    id=$("${KT[@]}" --in "$WORK/kk.pem" --size 2 --out-prefix "$WORK/kill0-" | sed 's|.*/\([0-9a-f]*\)\.0-2\.state$|\1|')
    span=$((($(date +%s%N) - start) / 1000 * 3 / 2 + 1)) # one run, in microseconds, and half again
    check "SIGKILL runs: the first, not killed, writes its shard" test -s "$WORK/kill0-1.pem"
    for i in $(seq 1 "$runs"); do
        "${KT[@]}" --in "$WORK/kk.pem" --size 2 --out-prefix "$WORK/kill$i-" >/dev/null 2>&1 &
        pid=$!
        sleep "$(printf '0.%06d' $(((RANDOM * 32768 + RANDOM) % span % 1000000)))"
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    n=0
    for k in "$WORK"/kill*-1.pem; do
        sign_loop "$k" 1 $((1000 + n))
        n=$((n + 1))
    done
    pnext=$(key_index "$WORK/kk.pem")
    ls "$WORK" | sed -n "s/^$id\.\([0-9]*\)-\([0-9]*\)\.state\$/\1 \2/p" | sort -n >"$WORK/ranges"
    check_eq "$runs SIGKILLed shard runs: shard ranges disjoint, below the parent's next $pnext" \
        "$(awk -v p="$pnext" 'NR > 1 && $1 < e { print "overlap " $0 } $2 > p { print "past " $0 } { e = $2 }' "$WORK/ranges")" ""
    echo "    ($n of $((runs + 1)) shard keys written, $(wc -l <"$WORK/ranges") shard states)"
    sign_loop "$WORK/kk.pem" 10 5000
    all_sigs_ok "$runs SIGKILLed shard runs"
    echo "    (${SECONDS}s)"
}

row XMSS 650-700 # shard-align 1024
row HSS 640-700  # shard-align 32: a bottom tree

WORK=$TOP
printf 'a message' >"$WORK/msg"
# encrypted keys: in and out
openssl genpkey "${PROV[@]}" -algorithm XMSSMT -pkeyopt param:XMSSMT-SHA2_20/4_256 \
    -pkeyopt "state:$WORK/e.state" -aes-256-cbc -pass pass:secret -out "$WORK/e.pem" 2>/dev/null
check_fails "encrypted key: wrong -passin refused" "${KT[@]}" --in "$WORK/e.pem" -passin pass:nope --size 32 --out-prefix "$WORK/ex"
check "encrypted key shards (-passin, -passout)" "${KT[@]}" --in "$WORK/e.pem" -passin pass:secret \
    -passout pass:other --count 2 --size 32 --out-prefix "$WORK/es"
check "  the shard key is encrypted" grep -q "BEGIN ENCRYPTED PRIVATE KEY" "$WORK/es2.pem"
check "  and signs with its passphrase" sign "$WORK/es2.pem" "$WORK/es.sig" -passin pass:other
check_eq "  at its first index" "$(od -An -tu1 -N3 "$WORK/es.sig" | awk '{ print $1 * 65536 + $2 * 256 + $3 }')" 32
check_fails "  not without it" sign "$WORK/es2.pem" "$WORK/es.sig" -passin pass:secret
check "shards of an encrypted parent are encrypted (-passin alone)" "${KT[@]}" --in "$WORK/e.pem" \
    -passin pass:secret --size 32 --out-prefix "$WORK/ep"
check "  the shard key is encrypted" grep -q "BEGIN ENCRYPTED PRIVATE KEY" "$WORK/ep1.pem"
check "  and signs with the parent's passphrase" sign "$WORK/ep1.pem" "$WORK/ep.sig" -passin pass:secret
check "shards of an encrypted parent are encrypted: -nocrypt writes one plain" "${KT[@]}" \
    --in "$WORK/e.pem" -passin pass:secret -nocrypt --size 32 --out-prefix "$WORK/en"
cp "$WORK/err" "$WORK/kt.err"
check "  with a warning" grep -q "warning: .*e.pem is encrypted" "$WORK/kt.err"
check "  unencrypted" grep -q "BEGIN PRIVATE KEY" "$WORK/en1.pem"
check "  signing without a passphrase" sign "$WORK/en1.pem" "$WORK/en.sig"
check_fails "  -nocrypt with -passout refused" "${KT[@]}" --in "$WORK/e.pem" -passin pass:secret \
    -nocrypt -passout pass:x --size 32 --out-prefix "$WORK/enx"

genkey XMSS "$WORK/p.pem"
mask=$(umask)
for u in 0 022; do
    umask $u # not in a subshell: check's counts must reach the summary
    kt "shard keys are created 0600 whatever the umask ($u)" --in "$WORK/p.pem" --size 4 \
        --out-prefix "$WORK/u$u-"
    check_eq "  mode 0600 under umask $u" "$(stat -c %a "$WORK/u$u-1.pem")" 600
done
umask 0
kt "shard keys are created 0600 whatever the umask: encrypted (umask 0)" --in "$WORK/e.pem" \
    -passin pass:secret --size 32 --out-prefix "$WORK/ue"
umask "$mask"
check_eq "  mode 0600" "$(stat -c %a "$WORK/ue1.pem")" 600

spends_nothing "an existing --out-prefix spends nothing" "u0-1.pem exists" "$WORK/p.pem" \
    --size 100 --out-prefix "$WORK/u0-"
: >"$WORK/v2.pem"
spends_nothing "an existing --out-prefix spends nothing: only its 2nd key file exists" \
    "v2.pem exists" "$WORK/p.pem" --count 2 --size 10 --out-prefix "$WORK/v"
spends_nothing "a -state in a missing directory spends nothing" "$WORK/missing/s.state" \
    "$WORK/p.pem" --size 110 --out-prefix "$WORK/m" -state "$WORK/missing/s.state"
spends_nothing "a -state in a missing directory spends nothing: -state DIR/" "$WORK/missing/" \
    "$WORK/p.pem" --size 10 --out-prefix "$WORK/m" -state "$WORK/missing/"
spends_nothing "an --out-prefix in a missing directory spends nothing" "directory $WORK/missing" \
    "$WORK/p.pem" --size 10 --out-prefix "$WORK/missing/m"
spends_nothing "a -state file for 2 shards spends nothing" "not of 2" \
    "$WORK/p.pem" --count 2 --size 10 --out-prefix "$WORK/m" -state "$WORK/one.state"
check_eq "  and no key file written" "$(ls "$WORK" | grep -c '^m.*\.pem')" 0

echo "    (${SECONDS}s)"
summary shard
