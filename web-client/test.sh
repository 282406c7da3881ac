#!/usr/bin/env bash
# The web client's tests (called by scripts/test.sh after mvn verify, or on their own):
#   1. npm ci (versions from package-lock.json; no browser download: Chromium is Debian's)
#   2. node --test: the decoder and the protocol helpers against xep-spec's vectors (malformed/ refused); the room order of retained messages
#   3. node --test: the browser tests - headless Chromium + puppeteer-core against a real Prosody
#      (WebSocket, the page) and the real component, with a Smack client (test/SmackPeer.java): the plugin,
#      and, at the same time, Converse.js's own XEP-0437 room activity indicators (muc_subscribe_to_rai)
#      and a big room of 1,500 light bots (irc-replay's fill; BIG_ROOM_BOTS changes the number)
# Needs: node >= 18, npm, chromium (scripts/install-deps.sh --test), a JDK 17 and Maven.
# RECONMUC_MVN_OFFLINE=1 builds the jar and the Smack class path with mvn -o; RECONMUC_WEB_PREBUILT=1 builds
# nothing (the Maven build's own call, web-client/pom.xml, after those modules were built).
# Run directories: web-client/target/web-test-*; screenshots: web-client/screenshots/.
set -euo pipefail
WEB="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$WEB")"
# shellcheck source=scripts/common.sh
. "$ROOT/scripts/common.sh"
use_jdk17

# npm: on PATH, or the one bundled with a Node.js package that does not link it (e.g. nodesource's).
if command -v npm >/dev/null 2>&1; then
  NPM=(npm)
elif [[ -f /usr/lib/node_modules/npm/bin/npm-cli.js ]]; then
  NPM=(node /usr/lib/node_modules/npm/bin/npm-cli.js)
else
  die "npm is missing: run scripts/install-deps.sh --test"
fi
command -v chromium >/dev/null 2>&1 || [[ -n "${CHROMIUM:-}" ]] || die "chromium is missing: run scripts/install-deps.sh --test"

if [[ "${RECONMUC_WEB_PREBUILT:-}" != 1 ]]; then
  MVN=(mvn -B -q)
  [[ "${RECONMUC_MVN_OFFLINE:-}" == 1 ]] && MVN+=(-o)
  say "web-client: the component jar, the light bots' jar and the Smack client's class path"
  (cd "$ROOT" && "${MVN[@]}" -pl component,reconmuc-smack,servers,irc-replay -am package -DskipTests)
fi

cd "$WEB"
say "web-client: npm ci"
PUPPETEER_SKIP_DOWNLOAD=1 "${NPM[@]}" ci --no-audit --no-fund --loglevel=error
say "web-client: node --test (vectors, then the browser)"
node --test test/decoder.test.js test/protocol.test.js test/room-order.test.js test/occupant-pages.test.js
# The three browser tests at once (each has its own Prosody, component, Chromium, ports and run
# directory), in three node processes: Debian's Node.js 18 has no --test-concurrency.
mkdir -p target
declare -A pids
for t in browser rai big-room; do
  node --test "test/$t.test.js" >"target/$t.test.log" 2>&1 &
  pids[$t]=$!
done
failed=()
for t in browser rai big-room; do
  wait "${pids[$t]}" || failed+=("$t.test.js")
  cat "target/$t.test.log"
done
(( ${#failed[@]} == 0 )) || die "web-client: a browser test failed: ${failed[*]}"
