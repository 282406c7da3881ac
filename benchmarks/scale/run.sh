#!/usr/bin/env bash
# One room, growing (issue 45): the curve on Prosody and on ejabberd with the light bots, the check of
# the light bots against the Smack bots at 800, and a room's fan-out across ejabberd nodes.
# Run it with the machine to yourself (no build, test or helper running): each step records the load
# before and after. Everything is bounded and stops by itself; traffic stays on loopback.
# Usage: benchmarks/scale/run.sh OUT_DIR [STEPS]   STEPS: any of prosody ejabberd smack800 crossnode (all by default)
#   SIZES_PROSODY / SIZES_EJABBERD (environment) replace the sizes, e.g. SIZES_EJABBERD=800,20000
set -euo pipefail
out=$1
steps=${2:-prosody ejabberd smack800 crossnode}
root=$(cd "$(dirname "$0")/../.." && pwd)
jar=$root/irc-replay/target/irc-replay.jar
# From a fresh clone: Prosody, ejabberd and a JDK (install-deps --test), then the bots' jar.
# shellcheck source=scripts/common.sh
. "$root/scripts/common.sh"
"$root/scripts/install-deps.sh" --test
use_jdk17
if [[ ! -f "$jar" ]]; then
    (cd "$root" && mvn -B -q -DskipTests install && mvn -B -q -pl irc-replay package -DskipTests)
fi
mkdir -p "$out"
run() {   # run NAME COMMAND...: the command's output and the load before and after into OUT/NAME.*
    local name=$1; shift
    echo "load before: $(cat /proc/loadavg)" > "$out/$name.txt"
    echo "command: ${*#$root/}" >> "$out/$name.txt"
    "$@" 2>&1 | grep -v '\[worker .*progress\|\[#\|\[\.' > "$out/$name.console.txt" || true
    echo "load after: $(cat /proc/loadavg)" >> "$out/$name.txt"
}
cd "$root/irc-replay"
for step in $steps; do
    case $step in
        prosody)
            # One process holds at most ~19,900 sessions: the curve ends there.
            run prosody java -jar "$jar" scale --server prosody --sizes "${SIZES_PROSODY:-800,2000,5000,10000,19000}" \
                --out "$out/prosody" ;;
        ejabberd)
            run ejabberd java -jar "$jar" scale --server ejabberd \
                --sizes "${SIZES_EJABBERD:-800,2000,5000,10000,20000,50000,100000}" --out "$out/ejabberd" ;;
        smack800)
            # The same room, the same 60 messages at 1/s, nobody relaxed: Smack bots, then light bots.
            run smack800 java -Xmx6g -jar "$jar" replay --server ejabberd --bots 800 --messages 60 --rate 1 \
                --duration 62 --join-rate 20 --login-threads 8 --no-compression --presence-level none \
                --out "$out/smack800" off
            run light800 java -jar "$jar" scale --server ejabberd --sizes 800 --scenarios off --out "$out/light800" ;;
        crossnode)
            # 10,000 live occupants on a two-node ejabberd cluster: all on the node the component attaches to,
            # then all on the other node (every copy crosses the cluster).
            run crossnode-first java -jar "$jar" scale --server ejabberd --nodes 2 --bots-on first --sizes 10000 \
                --scenarios off --out "$out/crossnode-first"
            run crossnode-others java -jar "$jar" scale --server ejabberd --nodes 2 --bots-on others --sizes 10000 \
                --scenarios off --out "$out/crossnode-others" ;;
        *) echo "unknown step $step" >&2; exit 2 ;;
    esac
done
