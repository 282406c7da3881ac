#!/usr/bin/env bash
# The web page in a big room, measured once (not a test; issue 45's "the web page in Chromium joins the
# 20,000-occupant room and shows its last messages within 5 s"): Prosody + the component, a room filled
# with irc-replay's light bots that talk all along, and headless Chromium opening it through Converse's
# "Add groupchat" dialogue, timed from the click of "Join" to the room's last message on screen.
#
#   web-client/bench-big-room.sh [--bots 19950] [--joins 3] [--storms 1,60] [--out DIR]
#
# --bots: 19,950 by default, the most one Prosody process holds beside the page and Carol here (20,000
# open files per process, a hard limit). --joins N: joins while the room is quiet (no digest due);
# --storms K,L…: a join for each K, clicked while the room sends a digest of K messages to every relaxed
# bot. Writes DIR/result.json (the figures, the stanzas' times, the load before and after) and
# screenshots; DIR defaults to benchmarks/results/<today>-web-big-room. Takes ~20 min, most of it the
# fill (~100 logins a second) and waiting for the room to be quiet between joins. Run it on an idle
# machine: the load is in the result.
# RECONMUC_MVN_OFFLINE=1 builds the jars with mvn -o.
set -euo pipefail
WEB="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$WEB")"
# shellcheck source=scripts/common.sh
. "$ROOT/scripts/common.sh"
use_jdk17

args=("$@")
out=""
for ((i = 0; i < ${#args[@]}; i += 2)); do
  case "${args[i]}" in
    --out) out="${args[i + 1]:-}" ;;
    --bots) ;;
    --joins) ;;
    --storms) ;;
    --room) ;;
    *) echo "bench-big-room: unknown option ${args[i]} (--bots N, --joins N, --storms K,L, --room JID, --out DIR)" >&2; exit 2 ;;
  esac
done
if [[ -z "$out" ]]; then
  out="$ROOT/benchmarks/results/$(date +%F)-web-big-room"
  args+=(--out "$out")
fi

MVN=(mvn -B -q)
[[ "${RECONMUC_MVN_OFFLINE:-}" == 1 ]] && MVN+=(-o)
say "bench-big-room: the component jar, the light bots' jar and the Smack client's class path"
(cd "$ROOT" && "${MVN[@]}" -pl component,reconmuc-smack,servers,irc-replay -am package -DskipTests)
cd "$WEB"
if [[ ! -d node_modules/converse.js ]]; then
  say "bench-big-room: npm ci"
  PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
fi
say "bench-big-room: ${args[*]}"
node test/bench-big-room.js "${args[@]}"
