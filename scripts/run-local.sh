#!/usr/bin/env bash
# README command 1: build ReConMUC and run it locally, attached to a Prosody started from
# deploy/prosody/prosody.cfg.lua.template, or to an Openfire (config, data and logs under
# run/<server>/). Ctrl-C stops both.
#
#   scripts/run-local.sh           run until Ctrl-C / SIGTERM
#   scripts/run-local.sh --check   start everything, wait until the component has attached,
#                                  print the connection info, stop everything, exit 0
#   --server prosody|openfire      the XMPP server to attach to (prosody by default); Openfire 5.1.1
#                                  comes from ../shared/openfire/ beside the repository
#   --instances N [--connections K]  several instances behind ejabberd with a shared PostgreSQL
#                                  (scripts/run-cluster.sh)
#
# With Prosody it also serves the web: Prosody's WebSocket and the Converse.js page with the ReConMUC
# plugin (web-client/, its npm packages installed with npm ci when missing) at
# http://127.0.0.1:5280/files/ (deploy/prosody/web.cfg.lua.template).
#
# Environment: RECONMUC_C2S_PORT (5222), RECONMUC_COMPONENT_PORT (5347), RECONMUC_HTTP_PORT (5280),
#   RECONMUC_DOMAIN (reconmuc.localhost), RECONMUC_SECRET (s3cret),
#   RECONMUC_JAR (use this jar instead of building component/target/reconmuc-component.jar),
#   RECONMUC_ATTACH_TIMEOUT (seconds to wait for the component to attach, 60),
#   RECONMUC_STORE (where persistent rooms are kept: sqlite:run/store/rooms.db; none for memory only).
# Other RECONMUC_* variables (e.g. RECONMUC_HISTORY_SIZE) are read by the component itself.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CALLER_DIR="$PWD"
cd "$ROOT"
# shellcheck source=scripts/common.sh
. "$ROOT/scripts/common.sh"

check=0
SERVER=prosody
for arg in "$@"; do
  [[ "$arg" == --instances* ]] && exec "$ROOT/scripts/run-cluster.sh" "$@"
done
while (( $# )); do
  case "$1" in
    --check) check=1 ;;
    --server) shift; SERVER="${1:-}" ;;
    --server=*) SERVER="${1#--server=}" ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
[[ "$SERVER" == prosody || "$SERVER" == openfire ]] || die "--server must be prosody or openfire, not '$SERVER'"

C2S_PORT="${RECONMUC_C2S_PORT:-5222}"
COMPONENT_PORT="${RECONMUC_COMPONENT_PORT:-5347}"
DOMAIN="${RECONMUC_DOMAIN:-reconmuc.localhost}"
SECRET="${RECONMUC_SECRET:-s3cret}"
ATTACH_TIMEOUT="${RECONMUC_ATTACH_TIMEOUT:-60}"
HTTP_PORT="${RECONMUC_HTTP_PORT:-5280}"
RUN="$ROOT/run"
PDIR="$RUN/$SERVER"
PLOG="$PDIR/$SERVER.log"
CLOG="$RUN/component.log"
PIDS="$RUN/run-local.pids"
HOST=127.0.0.1

for p in "$C2S_PORT" "$COMPONENT_PORT" "$HTTP_PORT"; do
  if ! [[ "$p" =~ ^[0-9]+$ ]] || (( p < 1 || p > 65535 )); then die "bad port '$p'"; fi
done
[[ "$C2S_PORT" != "$COMPONENT_PORT" && "$HTTP_PORT" != "$C2S_PORT" && "$HTTP_PORT" != "$COMPONENT_PORT" ]] \
  || die "the client, component and HTTP ports must differ"
[[ "$DOMAIN" =~ ^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$ ]] || die "bad RECONMUC_DOMAIN '$DOMAIN'"
[[ -n "$SECRET" && "$SECRET" != *[\"\\]* ]] || die "RECONMUC_SECRET must be non-empty, without \" or \\"

# ---- dependencies and build ---------------------------------------------------------------
scripts/install-deps.sh --runtime
use_jdk17
component_jar run-local

# The page's packages (Converse.js, pako): web-client/node_modules, from package-lock.json.
WEB_PAGE=0
if [[ "$SERVER" == prosody ]]; then
  if [[ -f web-client/node_modules/converse.js/dist/converse.min.js && -f web-client/node_modules/pako/package.json ]]; then
    WEB_PAGE=1
  else
    NPM=()
    if command -v npm >/dev/null 2>&1; then NPM=(npm)
    elif [[ -f /usr/lib/node_modules/npm/bin/npm-cli.js ]]; then NPM=(node /usr/lib/node_modules/npm/bin/npm-cli.js); fi
    if (( ${#NPM[@]} )); then
      say "run-local: installing the web page's packages (cd web-client && npm ci)"
      if (cd web-client && PUPPETEER_SKIP_DOWNLOAD=1 "${NPM[@]}" ci --no-audit --no-fund --loglevel=error); then
        WEB_PAGE=1
      else
        warn "npm ci failed in web-client/: the WebSocket is served, the page is not"
      fi
    else
      warn "no npm (scripts/install-deps.sh --test installs it): the WebSocket is served, the Converse.js page is not"
    fi
  fi
fi

# ---- helpers --------------------------------------------------------------------------------
SERVER_PID=""
COMPONENT_PID=""

# True when something accepts TCP connections on 127.0.0.1:$1.
port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

# Opens an XMPP stream on port $1 (namespace $2, to $3); true if a stream header comes back.
stream_answers() {
  local reply
  # shellcheck disable=SC2016  # expanded by the inner bash, from its arguments
  reply="$(timeout 3 bash -c '
      exec 3<>"/dev/tcp/$0/$1" || exit 1
      printf "%s" "<?xml version=\"1.0\"?><stream:stream xmlns=\"$2\" to=\"$3\" version=\"1.0\" xmlns:stream=\"http://etherx.jabber.org/streams\">" >&3
      dd bs=4096 count=1 status=none <&3
      printf "</stream:stream>" >&3' "$HOST" "$1" "$2" "$3" 2>/dev/null)" || true
  [[ "$reply" == *"<stream:stream"* ]]
}

# stop PID NAME: SIGTERM, wait up to 10 s, then SIGKILL.
stop_pid() {
  local pid="$1" name="$2" i
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    warn "$name (pid $pid) did not stop after SIGTERM, killing it"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  trap - EXIT INT TERM
  if [[ -n "$COMPONENT_PID$SERVER_PID" ]]; then
    say "run-local: stopping"
  fi
  stop_pid "$COMPONENT_PID" component
  COMPONENT_PID=""
  stop_pid "$SERVER_PID" "$SERVER"
  SERVER_PID=""
  rm -f "$PIDS"
}
trap cleanup EXIT
trap 'cleanup; exit 129' HUP
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

fail() {
  printf 'error: %s\n' "$1" >&2
  if [[ -f "$PLOG" ]]; then printf -- '--- last lines of %s:\n' "$PLOG" >&2; tail -n 20 "$PLOG" >&2; fi
  if [[ -f "$CLOG" ]]; then printf -- '--- last lines of %s:\n' "$CLOG" >&2; tail -n 20 "$CLOG" >&2; fi
  cleanup
  exit 1
}

# ---- the XMPP server ----------------------------------------------------------------------
mkdir -p "$PDIR/data" "$PDIR/certs" "$PDIR/plugins"
# Processes left over by an earlier run-local that was killed hard (SIGKILL): stop them,
# the component first (it would otherwise re-attach to the new server).
if [[ -f "$PIDS" ]]; then
  while read -r name pid marker; do
    if [[ "$pid" =~ ^[0-9]+$ ]] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$marker"; then
      say "run-local: stopping the $name left running by an earlier run (pid $pid)"
      kill -TERM "$pid" 2>/dev/null || true
      for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done <"$PIDS"
  rm -f "$PIDS"
fi
check_ports=("$C2S_PORT" "$COMPONENT_PORT")
[[ "$SERVER" == prosody ]] && check_ports+=("$HTTP_PORT")
for p in "${check_ports[@]}"; do
  if port_open "$p"; then
    die "port $p on $HOST is already in use (another XMPP server? e.g. 'sudo systemctl stop prosody ejabberd'); choose other ports with RECONMUC_C2S_PORT / RECONMUC_COMPONENT_PORT"
  fi
done

sed_escape() { printf '%s' "$1" | sed -e 's/[\\&|]/\\&/g'; }
if [[ "$SERVER" == prosody ]]; then
  cp deploy/prosody/plugins/*.lua "$PDIR/plugins/"
  sed -e "s|\${DIR}|$(sed_escape "$PDIR")|g" \
      -e "s|\${LISTEN_ADDRESS}|$HOST|g" \
      -e "s|\${MUC_MODULES}||g" \
      -e "s|\${C2S_PORT}|$C2S_PORT|g" \
      -e "s|\${COMPONENT_PORT}|$COMPONENT_PORT|g" \
      -e "s|\${COMPONENT_DOMAIN}|$(sed_escape "$DOMAIN")|g" \
      -e "s|\${COMPONENT_SECRET}|$(sed_escape "$SECRET")|g" \
      deploy/prosody/prosody.cfg.lua.template >"$PDIR/prosody.cfg.lua"
  # shellcheck disable=SC2016  # literal ${NAME} placeholders
  # The web: WebSocket on every host, the page (web-client/) on the default one.
  sed -e "s|\${LISTEN_ADDRESS}|$HOST|g" \
      -e "s|\${HTTP_PORT}|$HTTP_PORT|g" \
      -e "s|\${WEB_ROOT}|$(sed_escape "$ROOT/web-client")|g" \
      -e "s|\${MIME_TYPES}|$(sed_escape "$ROOT/deploy/prosody/mime.types")|g" \
      deploy/prosody/web.cfg.lua.template >"$PDIR/web.cfg.lua"
  if grep -q '\${[A-Z]' "$PDIR/prosody.cfg.lua" "$PDIR/web.cfg.lua"; then
    die "unfilled placeholder in $PDIR/prosody.cfg.lua or web.cfg.lua"
  fi
  : >"$PLOG"
  prosody --config "$PDIR/prosody.cfg.lua" -F >>"$PLOG" 2>&1 </dev/null &
  SERVER_PID=$!
  echo "prosody $SERVER_PID $PDIR/prosody.cfg.lua" >>"$PIDS"
  LOGIN_HINT="insecure.localhost"
else
  TARBALL="$ROOT/../shared/openfire/openfire-5.1.1.tar.gz"
  [[ -f "$TARBALL" ]] || die "Openfire 5.1.1 is not at $TARBALL (it comes from ../shared/openfire beside the repository)"
  [[ "$DOMAIN" == *.localhost ]] || die "Openfire serves localhost: RECONMUC_DOMAIN must be a subdomain of it (e.g. reconmuc.localhost)"
  # Openfire keeps its settings in its database after the first start: a fresh copy each run.
  rm -rf "$PDIR/openfire"
  tar -C "$PDIR" -xzf "$TARBALL"
  sed -e "s|\${C2S_PORT}|$C2S_PORT|g" -e "s|\${COMPONENT_PORT}|$COMPONENT_PORT|g" \
      -e "s|\${SECRET}|$(sed_escape "$SECRET")|g" \
      "$PDIR/openfire/conf/openfire.xml.template" >"$PDIR/openfire/conf/openfire.xml"
  : >"$PLOG"
  "$PDIR/openfire/bin/openfire.sh" >>"$PLOG" 2>&1 </dev/null &   # JAVA_HOME from use_jdk17
  SERVER_PID=$!
  echo "openfire $SERVER_PID $PDIR/openfire" >>"$PIDS"
  LOGIN_HINT="localhost"
fi
ready=0
for ((i = 0; i < 900; i++)); do
  kill -0 "$SERVER_PID" 2>/dev/null || fail "$SERVER exited while starting"
  if grep -q 'Failed to open server port' "$PLOG"; then fail "$SERVER could not open its ports"; fi
  if stream_answers "$C2S_PORT" jabber:client "$LOGIN_HINT" \
     && stream_answers "$COMPONENT_PORT" jabber:component:accept "$DOMAIN" \
     && { [[ "$SERVER" != prosody ]] || port_open "$HTTP_PORT"; }; then
    ready=1
    break
  fi
  sleep 0.1
done
(( ready )) || fail "$SERVER did not answer on ports $C2S_PORT/$COMPONENT_PORT within 90 s"
say "run-local: $SERVER is up (pid $SERVER_PID), log $PLOG"

# ---- the component -------------------------------------------------------------------------
: >"$CLOG"
# Persistent rooms and their archives: run/store/rooms.db (SQLite), unless RECONMUC_STORE says otherwise.
STORE="${RECONMUC_STORE:-sqlite:$RUN/store/rooms.db}"
# The secret and the store (a JDBC URL may hold a password) go through the environment: on the
# command line every user's ps would show them.
export RECONMUC_SECRET="$SECRET" RECONMUC_STORE="$STORE"
component=(java -jar "$JAR" --server-host "$HOST" --server-port "$COMPONENT_PORT" --domain "$DOMAIN")
if (( check )); then
  "${component[@]}" >>"$CLOG" 2>&1 </dev/null &
else
  # Output to the terminal and the log; tee ignores Ctrl-C so the component's last lines get through.
  "${component[@]}" > >(trap '' INT; exec tee -a "$CLOG") 2>&1 </dev/null &
fi
COMPONENT_PID=$!
# (listed first, so that a later run stops it before the server)
{ echo "component $COMPONENT_PID $JAR"; cat "$PIDS"; } >"$PIDS.new" && mv "$PIDS.new" "$PIDS"

attached=0
for ((i = 0; i < ATTACH_TIMEOUT * 10; i++)); do
  if ! kill -0 "$COMPONENT_PID" 2>/dev/null; then
    rc=0
    wait "$COMPONENT_PID" || rc=$?
    COMPONENT_PID=""
    fail "the component exited with code $rc before attaching (wrong secret or domain?)"
  fi
  if grep -q "component connected to $HOST:$COMPONENT_PORT as $DOMAIN" "$CLOG"; then
    attached=1
    break
  fi
  sleep 0.1
done
if (( ! attached )); then
  (( check )) && fail "the component did not attach to $SERVER within $ATTACH_TIMEOUT s"
  warn "the component has not attached within $ATTACH_TIMEOUT s yet; still waiting (see $CLOG)"
fi

cat <<INFO

================================================================================
 ReConMUC is running (component pid $COMPONENT_PID, $SERVER pid $SERVER_PID)

 MUC service:   $DOMAIN
 Example room:  lobby@$DOMAIN   (join it as lobby@$DOMAIN/<your nick>;
                                 a room is created when its first occupant joins)
 Connect an XMPP client to server $HOST, port $C2S_PORT, WITHOUT TLS
 (allow plaintext authentication), with one of:
$(if [[ "$SERVER" == prosody ]]; then printf '%s\n' \
"   - any name and any password on insecure.localhost  (e.g. alice@insecure.localhost)" \
"   - an account you register in-band on localhost     (e.g. bob@localhost)" \
"   - SASL ANONYMOUS on anon.localhost"; else printf '%s\n' \
"   - alice@localhost / alicepw or bob@localhost / bobpw" \
"   - an account you register in-band on localhost" \
"   - SASL ANONYMOUS on localhost"; fi)
 The server's own MUC, for comparison: conference.localhost
$(if [[ "$SERVER" == prosody ]]; then
  if (( WEB_PAGE )); then printf '%s\n' \
" In a browser: http://$HOST:$HTTP_PORT/files/   (Converse.js with the ReConMUC plugin;" \
"   log in as e.g. alice@insecure.localhost with any password, join lobby@$DOMAIN;" \
"   or at once: http://$HOST:$HTTP_PORT/files/?jid=alice@insecure.localhost&password=x&room=lobby@$DOMAIN&topic=xmpp)"
  fi
  printf '%s\n' " WebSocket (RFC 7395): ws://$HOST:$HTTP_PORT/xmpp-websocket"
fi)

 Logs: $PLOG
       $CLOG
================================================================================
INFO

if (( check )) && [[ "$SERVER" == prosody ]]; then
  # The page and the WebSocket endpoint answer over HTTP.
  http_status() {
    # shellcheck disable=SC2016
    timeout 5 bash -c 'exec 3<>"/dev/tcp/$0/$1" || exit 1
      printf "GET %s HTTP/1.0\r\nHost: %s:%s\r\n\r\n" "$2" "$0" "$1" >&3
      head -n 1 <&3' "$HOST" "$HTTP_PORT" "$1" 2>/dev/null | tr -d '\r'
  }
  if (( WEB_PAGE )); then
    [[ "$(http_status /files/index.html)" == *" 200"* ]] || fail "the page http://$HOST:$HTTP_PORT/files/ does not answer 200"
  fi
  [[ "$(http_status /xmpp-websocket)" == HTTP/* ]] || fail "the WebSocket endpoint http://$HOST:$HTTP_PORT/xmpp-websocket does not answer"
fi
if (( check )); then
  say "run-local --check: OK, stopping"
  cleanup
  exit 0
fi
say "Press Ctrl-C to stop."

while true; do
  if ! kill -0 "$COMPONENT_PID" 2>/dev/null; then
    rc=0
    wait "$COMPONENT_PID" || rc=$?
    COMPONENT_PID=""
    fail "the component exited with code $rc"
  fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    rc=0
    wait "$SERVER_PID" || rc=$?
    SERVER_PID=""
    fail "$SERVER exited with code $rc"
  fi
  sleep 1 &
  wait $! || true
done
