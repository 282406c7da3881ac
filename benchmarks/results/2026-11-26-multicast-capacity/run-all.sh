#!/usr/bin/env bash
# The runs behind README.md here, one after the other on an otherwise idle machine (issue 28):
# Prosody and ejabberd with the component's broadcasts through XEP-0033 multicast and without,
# presence to everyone on both sides, and to moderators only on both sides; Prosody 1,000 and
# 1,200 for the largest room; then the paper's bandwidth phase for the occupants' bytes.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=$root/benchmarks/results/2026-11-26-multicast-capacity
run=$root/benchmarks/capacity/run.sh
full="--presence-broadcast moderator,participant,visitor"
mods="--presence-broadcast moderator"
off="--component-option multicast=false"
"$run" "$out" "prosody:800" "$full" full-multicast
SCENARIOS="off relaxed:volume=10" "$run" "$out" "prosody:800" "$full $off" full-unicast
"$run" "$out" "prosody:800" "$mods" moderators-multicast
SCENARIOS="standard off" "$run" "$out" "prosody:1000,1200" "$full" full-multicast
"$run" "$out" "ejabberd:800" "$full" full-multicast
SCENARIOS="off relaxed:volume=10" "$run" "$out" "ejabberd:800" "$full $off" full-unicast
echo "load before: $(cat /proc/loadavg)" > "$out/paper-bandwidth.txt"
java -Xmx6g -jar "$root/irc-replay/target/irc-replay.jar" paper --phases bandwidth \
    --scenarios standard,off,relaxed:v=10:a=compact-live/compact-deflate-live --out "$out/paper" \
    | grep -v '\[#\|\[\.' >> "$out/paper-bandwidth.txt" 2>&1
echo "load after: $(cat /proc/loadavg)" >> "$out/paper-bandwidth.txt"
