#!/usr/bin/env bash
# Issue 28: where Prosody's CPU goes when it serves a 600-occupant room with its own MUC
# (`standard`) and through the component (`off`, XEP-0033 multicast on; `off-unicast`, one stanza
# per recipient). One capacity replay (benchmarks/capacity's command: 360 messages at 6/s) with
# `perf record` sampling the whole machine (99 Hz, call graphs, CLOCK_MONOTONIC); the replay's
# console lines are stamped with the same clock, so the report can keep only Prosody's samples
# while the messages are replayed and drained (report.py). Run on an otherwise idle machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=$root/benchmarks/results/2026-11-26-prosody-profile
jar=$root/irc-replay/target/irc-replay.jar
bots=${BOTS:-600}
name_suffix=${NAME:-}
echo "load before: $(cat /proc/loadavg)" > "$out/run$name_suffix.txt"
perf record -a -g -F 99 -k CLOCK_MONOTONIC -o /tmp/prosody-profile.data > /tmp/prosody-profile.perf.log 2>&1 &
perf_pid=$!
sleep 1
for variant in ${VARIANTS:-standard:standard off:off off-unicast:off}; do
    name=${variant%%:*}
    scenario=${variant#*:}
    extra=""
    [ "$name" = off-unicast ] && extra="--component-option multicast=false"
    cmd=(java -Xmx6g -jar "$jar" replay --server prosody --bots "$bots" --messages 360 --rate 6 --duration 62
         --join-rate 20 --login-threads 8 $extra --out "/tmp/prosody-profile-$name" "$scenario")
    echo "command ($name): ${cmd[*]#$root/}" >> "$out/run$name_suffix.txt"
    "${cmd[@]}" 2>&1 | grep --line-buffered -v '\[#\|\[\.' \
        | python3 -u -c 'import sys,time
for line in sys.stdin: print(f"{time.monotonic():.3f} '"$name"' {line}", end="")' >> "$out/console$name_suffix.txt"
done
kill -INT $perf_pid
wait $perf_pid || true
echo "load after: $(cat /proc/loadavg)" >> "$out/run$name_suffix.txt"
python3 "$out/report.py" /tmp/prosody-profile.data "$out/console$name_suffix.txt" > "$out/profile$name_suffix.md"
