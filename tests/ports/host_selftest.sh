#!/usr/bin/env bash
# Runs the host build of the ports' self-test and checks that it prints exactly the checksum line
# that the bare-metal targets print (taken from the expected kernel trace).
#   host_selftest.sh BINARY EXPECTED_TRACE
set -u
out=$("$1") || { echo "FAIL: host self-test exited non-zero: $out"; exit 1; }
want=$(grep '^selftest ' "$2")
echo "host:     $out"
echo "expected: $want"
[ "$out" = "$want" ] || { echo "FAIL: the host checksum differs from the bare-metal targets'"; exit 1; }
echo ok
