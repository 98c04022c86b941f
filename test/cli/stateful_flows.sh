# stateful_flows.sh - sourced by xmss.sh, xmssmt.sh and hss.sh (after lib.sh):
# the command-line flows of a stateful many-time key, as a user runs them.
# X.509 flows (req -x509 -new, req + x509 -req -CA, x509 -text, verify) for
# these algorithms live in x509.sh.

# hexof FILE: the bytes as one lowercase hex line
hexof() { od -An -v -tx1 "$1" | tr -d ' \n'; }
# vec FILE KEY: a value of a vectors file
vec() { sed -n "s/^$2 = //p" "$VECTORS/xmss/$1"; }
# state_line KEYFILE: the "state:" line of pkey -text
state_line() { openssl pkey "${PROV[@]}" -in "$1" -noout -text 2>&1 | grep '^state:'; }

# stateful_flows ALG DEFAULT_PARAM OTHER_PARAM VECTOR_FILE MAX: VECTOR_FILE under
# $VECTORS/xmss, or - for none (its seed -> pk, sig_idx0, sig_idx1 checks).
stateful_flows() {
    local alg=$1 defparam=$2 other=$3 vfile=$4 max=$5 d="$WORK/$1"
    mkdir -p "$d"
    echo "the message" >"$d/msg"

    # --- genpkey: default set, state path, progress on stderr ---
    check "$alg: genpkey (default set, -pkeyopt state:)" \
        openssl genpkey "${PROV[@]}" -algorithm "$alg" -pkeyopt "state:$d/k.state" -out "$d/k.pem"
    cp "$WORK/err" "$WORK/prev.err"
    check "$alg: genpkey showed progress" grep -q '\.\.\.\.' "$WORK/prev.err"
    check "$alg: state file created" test -s "$d/k.state"
    check "$alg: tree-node cache file created beside it" test -s "$d/k.state.cache"
    openssl pkey "${PROV[@]}" -in "$d/k.pem" -noout -text >"$d/k.txt" 2>&1
    check "$alg: pkey -text names the default set" grep -qF "parameter set: $defparam" "$d/k.txt"
    check_eq "$alg: pkey -text prints index and remaining" "$(grep '^state:' "$d/k.txt")" \
        "state: index 0, remaining $max of $max signatures"
    check "$alg: pkey -text prints the state file" grep -qF "state file: $d/k.state" "$d/k.txt"
    check "$alg: genpkey -pkeyopt param:$other" openssl genpkey "${PROV[@]}" -algorithm "$alg" \
        -pkeyopt "param:$other" -pkeyopt "state:$d/o.state" -out "$d/o.pem"
    check "$alg: pkey -text names it" grep -qF "parameter set: $other" \
        <(openssl pkey "${PROV[@]}" -in "$d/o.pem" -noout -text)
    check_fails "$alg: genpkey refuses an unknown set" openssl genpkey "${PROV[@]}" -algorithm "$alg" \
        -pkeyopt param:XMSS-NOPE -pkeyopt "state:$d/x.state"
    check_fails "$alg: genpkey refuses to overwrite an existing state file" \
        openssl genpkey "${PROV[@]}" -algorithm "$alg" -pkeyopt "state:$d/k.state"

    # --- pkey -pubout / -text_pub ---
    check "$alg: pkey -pubout" openssl pkey "${PROV[@]}" -in "$d/k.pem" -pubout -out "$d/k.pub"
    check "$alg: pkey -pubin -text" grep -q "$alg Public-Key" \
        <(openssl pkey "${PROV[@]}" -pubin -in "$d/k.pub" -noout -text)

    # --- pkeyutl -rawin: one signature per process burns nothing ---
    check "$alg: pkeyutl -sign -rawin" openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$d/k.pem" \
        -in "$d/msg" -out "$d/msg.sig"
    check "$alg: pkeyutl -verify -rawin (private key)" openssl pkeyutl "${PROV[@]}" -verify -rawin \
        -inkey "$d/k.pem" -in "$d/msg" -sigfile "$d/msg.sig"
    check "$alg: pkeyutl -verify -rawin (public key)" openssl pkeyutl "${PROV[@]}" -verify -rawin \
        -pubin -inkey "$d/k.pub" -in "$d/msg" -sigfile "$d/msg.sig"
    check "$alg: second pkeyutl -sign" openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$d/k.pem" \
        -in "$d/msg" -out "$d/msg2.sig"
    check_eq "$alg: two one-signature runs spent exactly two indices" "$(state_line "$d/k.pem")" \
        "state: index 2, remaining $((max - 2)) of $max signatures"
    cp "$d/msg" "$d/bad"; echo x >>"$d/bad"
    check_fails "$alg: pkeyutl -verify refuses another message" openssl pkeyutl "${PROV[@]}" -verify \
        -rawin -pubin -inkey "$d/k.pub" -in "$d/bad" -sigfile "$d/msg.sig"
    cp "$d/msg.sig" "$d/long.sig"; printf 'x' >>"$d/long.sig"
    check_fails "$alg: pkeyutl -verify refuses an extended signature" openssl pkeyutl "${PROV[@]}" \
        -verify -rawin -pubin -inkey "$d/k.pub" -in "$d/msg" -sigfile "$d/long.sig"
    head -c 100 "$d/msg.sig" >"$d/short.sig"
    check_fails "$alg: pkeyutl -verify refuses a truncated signature" openssl pkeyutl "${PROV[@]}" \
        -verify -rawin -pubin -inkey "$d/k.pub" -in "$d/msg" -sigfile "$d/short.sig"
    check "$alg: pkeyutl -pkeyopt batch:1" openssl pkeyutl "${PROV[@]}" -sign -rawin \
        -inkey "$d/k.pem" -pkeyopt batch:1 -in "$d/msg" -out "$d/msg3.sig"

    # --- dgst (streaming digest-sign, no digest) ---
    check "$alg: dgst -sign" openssl dgst "${PROV[@]}" -sign "$d/k.pem" -out "$d/dgst.sig" "$d/msg"
    check "$alg: dgst -verify" openssl dgst "${PROV[@]}" -verify "$d/k.pub" -signature "$d/dgst.sig" \
        "$d/msg"
    check_fails "$alg: dgst -verify refuses another message" openssl dgst "${PROV[@]}" \
        -verify "$d/k.pub" -signature "$d/dgst.sig" "$d/bad"
    check_fails "$alg: dgst -sha256 -sign is refused (the message is signed whole)" \
        openssl dgst "${PROV[@]}" -sha256 -sign "$d/k.pem" -out "$d/x.sig" "$d/msg"

    # --- known answer through the CLI: seed -> pk, first signature of "abc" ---
    if [ "$vfile" != - ] && need_vectors; then
        local name; name=$(vec "$vfile" name)
        printf abc >"$d/abc"
        check "$alg: genpkey -pkeyopt seed: ($name)" openssl genpkey "${PROV[@]}" -algorithm "$alg" \
            -pkeyopt "param:$name" -pkeyopt "seed:$(vec "$vfile" seed)" \
            -pkeyopt "state:$d/kat.state" -out "$d/kat.pem"
        openssl pkey "${PROV[@]}" -in "$d/kat.pem" -pubout -outform DER -out "$d/kat.spki"
        local pk; pk=$(vec "$vfile" pk)
        check_eq "$alg: SubjectPublicKeyInfo BIT STRING is the vectors' pk" \
            "$(hexof "$d/kat.spki" | tail -c ${#pk})" "$pk"
        openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$d/kat.pem" -in "$d/abc" -out "$d/abc.sig"
        check_eq "$alg: first signature of abc is sig_idx0" "$(hexof "$d/abc.sig")" \
            "$(vec "$vfile" sig_idx0)"
        openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$d/kat.pem" -in "$d/abc" -out "$d/abc.sig"
        check_eq "$alg: second (new process) is sig_idx1" "$(hexof "$d/abc.sig")" \
            "$(vec "$vfile" sig_idx1)"
    fi

    # --- encrypted PKCS#8 ---
    check "$alg: genpkey -aes-256-cbc" openssl genpkey "${PROV[@]}" -algorithm "$alg" \
        -pkeyopt "state:$d/e.state" -aes-256-cbc -pass pass:secret -out "$d/e.pem"
    check "$alg: the PEM is encrypted" grep -q 'BEGIN ENCRYPTED PRIVATE KEY' "$d/e.pem"
    check "$alg: sign with the encrypted key" openssl pkeyutl "${PROV[@]}" -sign -rawin \
        -inkey "$d/e.pem" -passin pass:secret -in "$d/msg" -out "$d/e.sig"
    check_fails "$alg: wrong passphrase" openssl pkeyutl "${PROV[@]}" -sign -rawin \
        -inkey "$d/e.pem" -passin pass:wrong -in "$d/msg" -out "$d/e2.sig"

    # --- the cache file is public, verified, rebuilt ---
    cache_flows "$alg" "$d"

    # --- unusable state: refuses to sign, no signature, verify/export work ---
    mv "$d/k.state" "$d/k.state.away"
    check_sign_refused "$alg: pkeyutl -sign refuses without its state" \
        "signature state file is missing" "$d/k.pem" "$d/msg" "$d/none.sig"
    check "$alg: pkey -text says the state is unusable" grep -q "state: UNUSABLE" \
        <(openssl pkey "${PROV[@]}" -in "$d/k.pem" -noout -text)
    check "$alg: verify still works" openssl pkeyutl "${PROV[@]}" -verify -rawin -inkey "$d/k.pem" \
        -in "$d/msg" -sigfile "$d/msg.sig"
    check "$alg: public export still works" openssl pkey "${PROV[@]}" -in "$d/k.pem" -pubout \
        -out "$d/k2.pub"
    cp "$d/o.state" "$d/k.state"
    check_sign_refused "$alg: another key's state is refused" "belongs to another key" \
        "$d/k.pem" "$d/msg" "$d/none.sig"
    cp "$d/k.state.away" "$d/k.state"
    flip_bit "$d/k.state" 60 # a key-id byte: flipped, so it always changes
    check_sign_refused "$alg: a corrupt state is refused" "state file is corrupt" \
        "$d/k.pem" "$d/msg" "$d/none.sig"
    mv "$d/k.state.away" "$d/k.state"

    # --- no regular file at the state or cache path: refused, never a hang ---
    mkfifo "$d/fifo.state"
    timeout 20 openssl genpkey "${PROV[@]}" -algorithm "$alg" -pkeyopt "state:$d/fifo.state" \
        -out "$d/fifo.pem" >"$WORK/out" 2>"$d/fifo.err"
    local rc=$?
    check_eq "$alg: genpkey with a FIFO as state: fails at once (not by the timeout)" \
        "$([ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && echo refused)" refused
    mkfifo "$d/fc.state.cache"
    check "$alg: genpkey with a FIFO as the cache file does not hang" timeout 20 openssl genpkey \
        "${PROV[@]}" -algorithm "$alg" -pkeyopt "state:$d/fc.state" -out "$d/fc.pem"
    check "$alg: ... the key signs with the FIFO still there" timeout 20 openssl pkeyutl \
        "${PROV[@]}" -sign -rawin -inkey "$d/fc.pem" -in "$d/msg" -out "$d/fc.sig"
    check "$alg: ... and the FIFO is left alone" test -p "$d/fc.state.cache"

    # --- state errors name the path and the system's reason ---
    check "$alg: the FIFO refusal names the path" grep -qF "state file $d/fifo.state" "$d/fifo.err"
    mkdir -p "$d/sub"
    check "$alg: genpkey with state in a subdirectory" openssl genpkey "${PROV[@]}" \
        -algorithm "$alg" -pkeyopt "state:$d/sub/k.state" -out "$d/sub.pem"
    rm -rf "$d/sub"
    touch "$d/sub" # the state's directory is now a plain file: ENOTDIR, even for root
    check_sign_refused "$alg: a state path under a plain file is refused" \
        "state file $d/sub/k.state: Not a directory" "$d/sub.pem" "$d/msg" "$d/none.sig"
    rm -f "$d/sub"
    mkdir -p "$d/sub/k.state"
    check_sign_refused "$alg: a directory at the state path is refused" \
        "state file $d/sub/k.state: Is a directory" "$d/sub.pem" "$d/msg" "$d/none.sig"
    check_fails "$alg: genpkey with state: under a plain file fails" openssl genpkey "${PROV[@]}" \
        -algorithm "$alg" -pkeyopt "state:$d/msg/k.state" -out "$d/none.pem"
    cp "$WORK/err" "$WORK/prev.err"
    check "$alg: ... naming the path and the reason" \
        grep -qF "state file $d/msg/k.state: Not a directory" "$WORK/prev.err"

    # --- default state directory: environment, then provider config ---
    mkdir -p "$d/envdir" "$d/cnfdir"
    check "$alg: FASTSIG_STATE_DIR picks the default state directory" \
        env FASTSIG_STATE_DIR="$d/envdir" openssl genpkey "${PROV[@]}" -algorithm "$alg" -out "$d/env.pem"
    check_eq "$alg: ... one <key id>.state there" "$(ls "$d/envdir" | grep -c '^[0-9a-f]\{64\}\.state$')" 1
    check "$alg: ... the key signs from elsewhere" env -u FASTSIG_STATE_DIR openssl pkeyutl \
        "${PROV[@]}" -sign -rawin -inkey "$d/env.pem" -in "$d/msg" -out "$d/env.sig"
    # a relative FASTSIG_STATE_DIR: the key stores the resolved absolute path,
    # so the key used from another working directory spends the same state
    mkdir -p "$d/rel/a" "$d/rel/b"
    check "$alg: genpkey with a relative FASTSIG_STATE_DIR" env -C "$d/rel/a" FASTSIG_STATE_DIR=st \
        openssl genpkey "${PROV[@]}" -algorithm "$alg" -out "$d/rel/k.pem"
    local reldir
    reldir=$(realpath "$d/rel/a/st")
    check "$alg: ... pkey -text shows the absolute, resolved state path" grep -q \
        "^state file: $reldir/[0-9a-f]\{64\}\.state\$" \
        <(env -C "$d/rel/b" openssl pkey "${PROV[@]}" -in "$d/rel/k.pem" -noout -text)
    check "$alg: ... the key signs from another directory with the same setting" env -C "$d/rel/b" \
        FASTSIG_STATE_DIR=st openssl pkeyutl "${PROV[@]}" -sign -rawin -inkey "$d/rel/k.pem" \
        -in "$d/msg" -out "$d/rel.sig"
    check_eq "$alg: ... spending the one state: index 1 seen from the first directory" \
        "$(cd "$d/rel/a" && state_line "$d/rel/k.pem" | sed 's/,.*//')" "state: index 1"
    check_eq "$alg: ... and no second state directory" "$(ls -d "$d/rel/b/st" 2>/dev/null)" ""
    provider_cnf "$d/fastsig.cnf" "state_dir = $d/cnfdir"
    check "$alg: state_dir in the provider's config section" env -u FASTSIG_STATE_DIR \
        OPENSSL_CONF="$d/fastsig.cnf" openssl genpkey -algorithm "$alg" -out "$d/cnf.pem"
    check_eq "$alg: ... one <key id>.state there" "$(ls "$d/cnfdir" | grep -c '\.state$')" 1
}

# cache_flows ALG DIR: the tree-node cache file is public, verified, rebuilt
cache_flows() {
    local alg=$1 d=$2
    rm -f "$d/k.state.cache"
    check "$alg: signs without its cache file" openssl pkeyutl "${PROV[@]}" -sign -rawin \
        -inkey "$d/k.pem" -in "$d/msg" -out "$d/c1.sig"
    check "$alg: ... and that signature verifies" openssl pkeyutl "${PROV[@]}" -verify -rawin \
        -pubin -inkey "$d/k.pub" -in "$d/msg" -sigfile "$d/c1.sig"
    check "$alg: cache file rewritten" test -s "$d/k.state.cache"
    head -c 2000 /dev/urandom | dd of="$d/k.state.cache" bs=1 seek=100 conv=notrunc 2>/dev/null
    check "$alg: signs with a corrupt cache file" openssl pkeyutl "${PROV[@]}" -sign -rawin \
        -inkey "$d/k.pem" -in "$d/msg" -out "$d/c2.sig"
    check "$alg: ... and that signature verifies" openssl pkeyutl "${PROV[@]}" -verify -rawin \
        -pubin -inkey "$d/k.pub" -in "$d/msg" -sigfile "$d/c2.sig"
    cp "$d/o.state.cache" "$d/k.state.cache"
    check "$alg: signs with another key's cache file" openssl pkeyutl "${PROV[@]}" -sign -rawin \
        -inkey "$d/k.pem" -in "$d/msg" -out "$d/c3.sig"
    check "$alg: ... and that signature verifies" openssl pkeyutl "${PROV[@]}" -verify -rawin \
        -pubin -inkey "$d/k.pub" -in "$d/msg" -sigfile "$d/c3.sig"
}
