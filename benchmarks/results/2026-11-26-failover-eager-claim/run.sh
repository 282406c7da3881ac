#!/usr/bin/env bash
# Issue 26, kill -9 again after the survivor claims a dead instance's rooms at its adoption
# (muc.LeasedRooms.takeOver) and reads them off the room threads: the same load and fault as
# ../2026-11-26-failover (40 rooms x 20 bots, 1 message/s per room, three instances x two
# connections behind ejabberd, shared PostgreSQL; the busiest instance SIGKILLed 30 s in),
# RUNS (default 3) times numbered from FIRST (default 1), the instances logging at INFO (each
# moved room says where its time went).
# Run on an otherwise idle machine; each folder's summary.json has the load before and after.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=$root/benchmarks/results/2026-11-26-failover-eager-claim
jar=$root/irc-replay/target/irc-replay.jar
common="--rooms 40 --bots-per-room 20 --instances 3 --connections 2 --messages 60 --rate 1 --drain 60"
first=${FIRST:-1}
for n in $(seq "$first" $((first + ${RUNS:-3} - 1))); do
    dir=$out/kill-$n
    echo "command: REPLAY_COMPONENT_LOG_LEVEL=INFO java -jar irc-replay/target/irc-replay.jar rooms $common --kill-at 30 --out ${dir#$root/}" > "$out/kill-$n.txt"
    (cd "$root" && REPLAY_COMPONENT_LOG_LEVEL=INFO java -Xmx3g -jar "$jar" rooms $common --kill-at 30 --out "$dir") > "$dir.console.txt" 2>&1
    echo "exit $?" >> "$out/kill-$n.txt"
done
python3 "$root/benchmarks/results/2026-11-26-failover/table.py" "$out" > "$out/table.md"
