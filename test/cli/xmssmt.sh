#!/usr/bin/env bash
# xmssmt.sh - XMSS^MT through the real openssl binary: the same flows as
# xmss.sh (stateful_flows.sh) with the default XMSSMT-SHA2_20/4_256 (2^20
# signatures), and an unknown param: name refused with its name; X.509 in
# x509.sh.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/stateful_flows.sh"

stateful_flows XMSSMT XMSSMT-SHA2_20/4_256 XMSSMT-SHA2_40/8_256 XMSSMT-SHA2_20-4_256.txt 1048576

# a name that is no set (20/3: 3 does not divide 20) is refused, naming it
check_fails "XMSSMT: genpkey refuses param:XMSSMT-SHA2_20/3_256" openssl genpkey "${PROV[@]}" \
    -algorithm XMSSMT -pkeyopt param:XMSSMT-SHA2_20/3_256 -out /dev/null
cp "$WORK/err" "$WORK/badname.err"
check "XMSSMT: ... naming the parameter set and why" \
    grep -qF "parameter set XMSSMT-SHA2_20/3_256: not a name of this algorithm's sets" "$WORK/badname.err"
summary xmssmt
