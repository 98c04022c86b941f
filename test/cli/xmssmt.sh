#!/usr/bin/env bash
# xmssmt.sh - XMSS^MT through the real openssl binary: the same flows as
# xmss.sh (hbs_flows.sh) with the default XMSSMT-SHA2_20/4_256 (2^20
# signatures); X.509 in x509.sh.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/hbs_flows.sh"

hbs_flows XMSSMT XMSSMT-SHA2_20/4_256 XMSSMT-SHA2_40/8_256 XMSSMT-SHA2_20-4_256.txt 1048576
summary xmssmt
