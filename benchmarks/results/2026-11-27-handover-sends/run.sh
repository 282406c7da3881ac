#!/usr/bin/env bash
# Issue 34: a room never hands a stanza to a connection being closed (74600fd). The rooms replay's
# clean rolling restart with one relaxed listener per room (volume 2, time 3 s: it must get every
# message exactly once, across three hand-overs of every room) — the load of
# ../2026-11-27-restructured (40 rooms x 20 bots, 1 message/s per room, 60 messages, three
# instances x two connections behind ejabberd, shared PostgreSQL) — alternating a checkout before
# the change (BASE, default ../../../../wt-base: 3d8fd5c) and this one, RUNS times each (default 3).
# SIDES picks (default "before after"; any side but "before" runs this checkout, e.g. SIDES=fixed
# for the runs after f627e75).
# Run on an otherwise idle machine; each folder's summary.json has the load before and after.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=$root/benchmarks/results/2026-11-27-handover-sends
base=${BASE:-$root/../wt-base}
common="--rooms 40 --bots-per-room 20 --connections 2 --messages 60 --rate 1 --drain 60 --instances 3"
common="$common --rolling-restart-at 20 --relaxed-bots 1 --relaxed-volume 2 --relaxed-time 3"
for n in $(seq 1 "${RUNS:-3}"); do
    for side in ${SIDES:-before after}; do
        if [[ $side == before ]]; then checkout=$base; else checkout=$root; fi
        dir=$out/$side-$n
        echo "command: (cd $(git -C "$checkout" log -1 --format=%h) checkout) java -Xmx3g -jar irc-replay/target/irc-replay.jar rooms $common --out $dir" > "$dir.txt"
        (cd "$checkout" && java -Xmx3g -jar irc-replay/target/irc-replay.jar rooms $common --out "$dir") > "$dir.console.txt" 2>&1
        echo "exit $?" >> "$dir.txt"
    done
done
