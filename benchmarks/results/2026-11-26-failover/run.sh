#!/usr/bin/env bash
# Issue 26's measurements: 40 rooms x 20 bots at 1 message/s per room, three instances x two
# connections behind ejabberd with a shared PostgreSQL (irc-replay rooms), and one fault 30 s in:
# the busiest instance killed (SIGKILL), paused for 10 s and for 30 s (SIGSTOP, SIGCONT), or every
# instance stopped cleanly and started again in turn. RUNS (default 1) times each, numbered from
# FIRST (default 1); FAULTS picks.
# Run on an otherwise idle machine; each folder's summary.json has the load before and after.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=$root/benchmarks/results/2026-11-26-failover
jar=$root/irc-replay/target/irc-replay.jar
common="--rooms 40 --bots-per-room 20 --instances 3 --connections 2 --messages 60 --rate 1 --drain 60"
runs=${RUNS:-1}
first=${FIRST:-1}
for fault in ${FAULTS:-kill pause-10 pause-30 rolling}; do
    case $fault in
        kill) args="--kill-at 30" ;;
        pause-10) args="--pause-at 30 --pause-seconds 10" ;;
        pause-30) args="--pause-at 30 --pause-seconds 30" ;;
        rolling) args="--rolling-restart-at 20" ;;
        *) echo "unknown fault $fault" >&2; exit 2 ;;
    esac
    for n in $(seq "$first" $((first + runs - 1))); do
        dir=$out/$fault-$n
        echo "command: java -jar irc-replay/target/irc-replay.jar rooms $common $args --out ${dir#$root/}" > "$out/$fault-$n.txt"
        (cd "$root" && java -Xmx3g -jar "$jar" rooms $common $args --out "$dir") > "$dir.console.txt" 2>&1
        echo "exit $?" >> "$out/$fault-$n.txt"
    done
done
python3 "$out/table.py" "$out" > "$out/table.md"
