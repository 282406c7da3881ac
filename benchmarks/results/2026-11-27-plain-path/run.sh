#!/usr/bin/env bash
# Issue 34, the last changes to the message path (f7b78d3..5fd634b: no XEP-0502 count in temporary
# rooms, flood control for presences and IQs only, deflate streams made on first use, no filter
# keys worked out while nobody in a room is relaxed): the failover runs of ../2026-11-26-failover
# (kill, rolling restart) and the rolling restart with one relaxed listener per room of
# ../2026-11-27-handover-sends, once each at this checkout, one after the other.
# OUT: the folder the runs go to (default: this one). Run on an otherwise idle machine; each
# folder's summary.json has the load before and after.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${OUT:-$root/benchmarks/results/2026-11-27-plain-path}
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
