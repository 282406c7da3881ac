#!/usr/bin/env bash
# Issue 34: the rooms replay after leasing moved into cluster/ and muc/ into feature packages —
# the same load as ../2026-11-26-failover (40 rooms x 20 bots, 1 message/s per room, 60 messages,
# two connections per instance behind ejabberd, shared PostgreSQL) — with RUNS (default: each once):
#   one      one instance (two buckets): the link bytes per delivered copy to compare with
#   three    three instances, no fault: every connection's multicast, link bytes per delivered copy
#   kill     three instances, the busiest SIGKILLed 30 s in
#   pause-10 three instances, the busiest paused 10 s at 30 s
#   rolling  three instances restarted in turn from 20 s
#   rolling-relaxed  the same with one relaxed listener per room (volume 2, time 3 s) that must get
#            every retained message exactly once (the option the rolling-restart IT lacked)
# Run on an otherwise idle machine; each folder's summary.json has the load before and after.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=$root/benchmarks/results/2026-11-27-restructured
jar=$root/irc-replay/target/irc-replay.jar
common="--rooms 40 --bots-per-room 20 --connections 2 --messages 60 --rate 1 --drain 60"
for run in ${RUNS:-one three kill pause-10 rolling rolling-relaxed}; do
    case $run in
        one) args="--instances 1" ;;
        three) args="--instances 3" ;;
        kill) args="--instances 3 --kill-at 30" ;;
        pause-10) args="--instances 3 --pause-at 30 --pause-seconds 10" ;;
        rolling) args="--instances 3 --rolling-restart-at 20" ;;
        rolling-relaxed) args="--instances 3 --rolling-restart-at 20 --relaxed-bots 1 --relaxed-volume 2 --relaxed-time 3" ;;
        *) echo "unknown run $run" >&2; exit 2 ;;
    esac
    dir=$out/$run
    echo "command: java -jar irc-replay/target/irc-replay.jar rooms $common $args --out ${dir#$root/}" > "$out/$run.txt"
    (cd "$root" && java -Xmx3g -jar "$jar" rooms $common $args --out "$dir") > "$dir.console.txt" 2>&1
    echo "exit $?" >> "$out/$run.txt"
done
