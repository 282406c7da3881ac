#!/usr/bin/env bash
# The web client's tests (called by scripts/test.sh after mvn verify, or on their own):
#   1. npm ci (versions from package-lock.json; no browser download: Chromium is Debian's)
#   2. node --test: the decoder and the protocol helpers against xep-spec's vectors (malformed/ refused); the room order of retained messages
#   3. node --test: the browser tests - headless Chromium + puppeteer-core against a real Prosody
#      (WebSocket, the page) and the real component, with a Smack client (test/SmackPeer.java): the plugin,
#      and, at the same time, Converse.js's own XEP-0437 room activity indicators (muc_subscribe_to_rai)
# Needs: node >= 18, npm, chromium (scripts/install-deps.sh --test), a JDK 17 and Maven.
# RECONMUC_MVN_OFFLINE=1 builds the jar and the Smack class path with mvn -o.
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

MVN=(mvn -B -q)
[[ "${RECONMUC_MVN_OFFLINE:-}" == 1 ]] && MVN+=(-o)
say "web-client: the component jar and the Smack client's class path"
(cd "$ROOT" && "${MVN[@]}" -pl component,reconmuc-smack,servers -am package -DskipTests \
   dependency:build-classpath -Dmdep.outputFile=target/web-test.cp)

cd "$WEB"
say "web-client: npm ci"
PUPPETEER_SKIP_DOWNLOAD=1 "${NPM[@]}" ci --no-audit --no-fund --loglevel=error
say "web-client: node --test (vectors, then the browser)"
node --test test/decoder.test.js test/protocol.test.js test/room-order.test.js
# The two browser tests at once (each has its own Prosody, component, Chromium, ports and run
# directory), in two node processes: Debian's Node.js 18 has no --test-concurrency.
mkdir -p target
node --test test/browser.test.js >target/browser.test.log 2>&1 &
browser=$!
node --test test/rai.test.js >target/rai.test.log 2>&1 &
rai=$!
browser_rc=0 rai_rc=0
wait "$browser" || browser_rc=$?
wait "$rai" || rai_rc=$?
cat target/browser.test.log target/rai.test.log
(( browser_rc == 0 && rai_rc == 0 )) || die "web-client: a browser test failed (browser.test.js exit $browser_rc, rai.test.js exit $rai_rc)"
