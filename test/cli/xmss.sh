#!/usr/bin/env bash
# xmss.sh - XMSS through the real openssl binary: genpkey (default set,
# param:, seed: known answer, state:, encrypted), pkey -pubout/-text (index,
# remaining), pkeyutl -sign/-verify -rawin, dgst -sign/-verify, the cache
# file, unusable states, default state directories (hbs_flows.sh). The X.509
# flows run in x509.sh.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/hbs_flows.sh"

hbs_flows XMSS XMSS-SHA2_10_256 XMSS-SHAKE256_10_192 XMSS-SHA2_10_256.txt 1024
summary xmss
