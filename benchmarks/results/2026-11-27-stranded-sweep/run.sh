#!/usr/bin/env bash
# The stranded-room sweep (a48fc9b, 30617ba): each heartbeat lets go a room whose connection this instance
# closed and forgot three heartbeats ago. Must never fire in these runs (no path leaves rooms behind
# today) and change nothing: the failover runs of ../2026-11-26-failover (kill, rolling restart)
# and the rolling restart with one relaxed listener per room of
# ../2026-11-27-handover-sends, once each at this checkout, one after the other.
# Run on an otherwise idle machine; each folder's summary.json has the load before and after.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=$root/benchmarks/results/2026-11-27-stranded-sweep
jar=$root/irc-replay/target/irc-replay.jar
common="--rooms 40 --bots-per-room 20 --instances 3 --connections 2 --messages 60 --rate 1 --drain 60"
for run in ${RUNS_LIST:-kill rolling rolling-relaxed}; do
    case $run in
        kill) args="--kill-at 30" ;;
        rolling) args="--rolling-restart-at 20" ;;
        rolling-relaxed) args="--rolling-restart-at 20 --relaxed-bots 1 --relaxed-volume 2 --relaxed-time 3" ;;
        *) echo "unknown run $run" >&2; exit 2 ;;
    esac
    dir=$out/$run
    echo "command: ($(git -C "$root" log -1 --format=%h)) java -Xmx3g -jar irc-replay/target/irc-replay.jar rooms $common $args --out ${dir#$root/}" > "$dir.txt"
    (cd "$root" && java -Xmx3g -jar "$jar" rooms $common $args --out "$dir") > "$dir.console.txt" 2>&1
    echo "exit $?" >> "$dir.txt"
done
python3 "$root/benchmarks/results/2026-11-26-failover/table.py" "$out" > "$out/table.md"
