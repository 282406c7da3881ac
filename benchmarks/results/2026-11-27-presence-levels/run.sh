#!/usr/bin/env bash
# Issue 35 item 3: filling a room of 5,000 (then 800) bots, the server's own MUC with its big-room
# option (presence broadcast to moderators only: `standard`) beside the component with every bot
# asking for the presences of nobody (`off` at --presence-level none), in one run per server.
# Few messages: the fill is what is measured (summary.json: fill_seconds, presences_received_in_joins,
# fill_server_cpu_seconds, fill_component_cpu_seconds). Run on an otherwise idle machine.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=$root/benchmarks/results/2026-11-27-presence-levels
jar=$root/irc-replay/target/irc-replay.jar
for spec in ${RUNS:-prosody:5000 prosody:800 ejabberd:800}; do
    server=${spec%%:*}; bots=${spec##*:}
    dir=$out/$server-$bots
    args="replay --server $server --bots $bots --messages 30 --rate 1 --duration 40 --join-rate 100 --login-threads 16 --component-heap 2g --own-muc-presence-broadcast moderator --presence-level none --out ${dir#$root/} standard off"
    echo "command: java -Xmx8g -jar irc-replay/target/irc-replay.jar $args" > "$dir.txt"
    echo "load before: $(cat /proc/loadavg)" >> "$dir.txt"
    (cd "$root" && java -Xmx8g -jar "$jar" $args) > "$dir.console.txt" 2>&1
    echo "exit $?; load after: $(cat /proc/loadavg)" >> "$dir.txt"
done
