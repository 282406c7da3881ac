#!/usr/bin/env bash
# How large a room each server serves at 6 messages/s, through the component and with its own MUC:
# the IRC logs replayed into one room of N bots (360 messages, 60 s), the server's own MUC
# (`standard`), the component with nobody relaxed (`off`) and everyone relaxed at volume 10
# (`relaxed:volume=10`, 60-s bound). One replay per server and size, one after the other, on an
# otherwise idle machine; load averages before and after each go into the results folder.
# Usage: benchmarks/capacity/run.sh OUT_DIR "prosody:100,200,400 ejabberd:1600" [EXTRA_ARGS [SUFFIX]]
#   EXTRA_ARGS go to every replay (e.g. "--component-option multicast=false"); SUFFIX names those
#   runs' folders (SERVER-BOTS-SUFFIX) so that both variants sit side by side in OUT_DIR.
#   SCENARIOS (environment) replaces the three scenarios, e.g. SCENARIOS="off relaxed:volume=10".
set -euo pipefail
out=$1
plan=$2
extra=${3:-}
suffix=${4:+-$4}
read -r -a scenarios <<< "${SCENARIOS:-standard off relaxed:volume=10}"
root=$(cd "$(dirname "$0")/../.." && pwd)
jar=$root/irc-replay/target/irc-replay.jar
mkdir -p "$out"
for entry in $plan; do
    server=${entry%%:*}
    IFS=, read -r -a sizes <<< "${entry#*:}"
    for bots in "${sizes[@]}"; do
        dir=$out/$server-$bots$suffix
        mkdir -p "$dir"
        echo "load before: $(cat /proc/loadavg)" > "$dir/run.txt"
        cmd=(java -Xmx6g -jar "$jar" replay --server "$server" --bots "$bots" --messages 360 --rate 6
             --duration 62 --join-rate 20 --login-threads 8 $extra --out "$dir" "${scenarios[@]}")
        echo "command: ${cmd[*]#$root/}" >> "$dir/run.txt"
        "${cmd[@]}" | grep -v '\[#\|\[\.' > "$dir/console.txt" 2>&1
        echo "load after: $(cat /proc/loadavg)" >> "$dir/run.txt"
    done
done
