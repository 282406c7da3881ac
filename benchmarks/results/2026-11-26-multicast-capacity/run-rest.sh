#!/usr/bin/env bash
# The second half of the session's runs (run-all.sh was stopped after the Prosody 800 runs: at 800
# both Prosody's own MUC and the component were already far past p99 5 s on this machine today, so
# the 1,000 and 1,200 runs would have said nothing more), with relaxed occupants due the same batch
# sharing one broadcast (commit after run-all's): Prosody 800 relaxed beside Prosody's own MUC again,
# ejabberd 800 with and without multicast, then the paper's bandwidth phase for the occupants' bytes.
# It stopped after the ejabberd multicast run (that replay exits 1: ejabberd's own MUC lost
# deliveries, see README.md); the ejabberd unicast run was then started by hand with the same line
# (command in its run.txt), and the paper's bandwidth phase was not run this session.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=$root/benchmarks/results/2026-11-26-multicast-capacity
run=$root/benchmarks/capacity/run.sh
full="--presence-broadcast moderator,participant,visitor"
off="--component-option multicast=false"
SCENARIOS="standard relaxed:volume=10" "$run" "$out" "prosody:800" "$full" full-multicast-shared-flushes
"$run" "$out" "ejabberd:800" "$full" full-multicast
SCENARIOS="off relaxed:volume=10" "$run" "$out" "ejabberd:800" "$full $off" full-unicast
echo "load before: $(cat /proc/loadavg)" > "$out/paper-bandwidth.txt"
java -Xmx6g -jar "$root/irc-replay/target/irc-replay.jar" paper --phases bandwidth \
    --scenarios standard,off,relaxed:v=10:a=compact-live/compact-deflate-live --out "$out/paper" \
    | grep -v '\[#\|\[\.' >> "$out/paper-bandwidth.txt" 2>&1
echo "load after: $(cat /proc/loadavg)" >> "$out/paper-bandwidth.txt"
