#!/usr/bin/env bash
# `governor verify` without a job's MUNGE credential: the governor.verify/1
# object for an absent and an invalid descriptor, and the exit statuses.
# (A verified one needs a sealed descriptor: the end-to-end cases.)
# usage: test_verify.sh GOVERNOR
set -uo pipefail
gov=$1
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"


out=$(env -i "$gov" verify --json)
check "absent: exit 4" 4 $?
check "absent: the object" \
  '{"schema":"governor.verify/1","status":"absent","reason":null,"reason_code":null,"age_s":null,"replayed":false,"expired":false,"via":null,"unchecked":null,"namespaces":"none","namespaces_unknown":"none"}' \
  "$out"
out=$(env -i GOVERNOR_DESCRIPTOR=MUNGE:forged: "$gov" verify --json)
check "invalid: exit 1" 1 $?
check "invalid: schema, status and a reason code" "governor.verify/1 invalid E" \
  "$(python3 -c 'import json, sys; o = json.load(sys.stdin); print(o["schema"], o["status"], o["reason_code"][0])' <<<"$out")"
check "text: the status" "descriptor: absent" "$(env -i "$gov" verify)"
finish
