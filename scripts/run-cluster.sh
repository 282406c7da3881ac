#!/usr/bin/env bash
# Several instances of ReConMUC serving one domain (README, "Several instances"): a local
# PostgreSQL (the shared store), a local ejabberd whose component domain has one bucket per
# connection (domain_balancing, bare_destination), and N component processes, each holding K
# connections. Logs under run/cluster/, the servers' data in run/cluster/state (a temporary directory
# PostgreSQL and ejabberd can reach from any checkout). Ctrl-C stops everything.
#
#   scripts/run-cluster.sh --instances N     (also: scripts/run-local.sh --instances N)
#   --connections K   connections per instance (2 by default; ejabberd gets N*K buckets)
#   --check           start everything, wait until every instance has attached, stop, exit 0
#   --check-restart   the same, with a rolling restart of every instance before stopping
#
# A rolling restart (README, "Rolling restart"): kill -HUP the script's pid. Each instance in turn
# is stopped with SIGTERM (it hands its buckets to the others), started again, and the next one
# waits until every instance holds its K buckets again.
#
# Environment: RECONMUC_C2S_PORT (5222), RECONMUC_COMPONENT_PORT (5347), RECONMUC_PG_PORT (55432),
#   RECONMUC_DOMAIN (reconmuc.localhost), RECONMUC_SECRET (s3cret), RECONMUC_JAR (a built jar),
#   RECONMUC_ATTACH_TIMEOUT (seconds, 60).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CALLER_DIR="$PWD"
cd "$ROOT"
# shellcheck source=scripts/common.sh
. "$ROOT/scripts/common.sh"

check=0
INSTANCES=2
CONNECTIONS=2
while (( $# )); do
  case "$1" in
    --check) check=1 ;;
    --check-restart) check=2 ;;
    --instances) shift; INSTANCES="${1:-}" ;;
    --instances=*) INSTANCES="${1#--instances=}" ;;
    --connections) shift; CONNECTIONS="${1:-}" ;;
    --connections=*) CONNECTIONS="${1#--connections=}" ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
[[ "$INSTANCES" =~ ^[0-9]+$ ]] && (( INSTANCES >= 1 && INSTANCES <= 20 )) || die "--instances must be 1..20"
[[ "$CONNECTIONS" =~ ^[0-9]+$ ]] && (( CONNECTIONS >= 1 && CONNECTIONS <= 50 )) || die "--connections must be 1..50"
BUCKETS=$(( INSTANCES * CONNECTIONS ))
(( BUCKETS >= 2 )) || BUCKETS=2   # ejabberd wants 2..1000; one extra bucket is claimed by no one until a restart

C2S_PORT="${RECONMUC_C2S_PORT:-5222}"
COMPONENT_PORT="${RECONMUC_COMPONENT_PORT:-5347}"
PG_PORT="${RECONMUC_PG_PORT:-55432}"
DIST_PORT=$(( COMPONENT_PORT + 10000 ))
DOMAIN="${RECONMUC_DOMAIN:-reconmuc.localhost}"
SECRET="${RECONMUC_SECRET:-s3cret}"
ATTACH_TIMEOUT="${RECONMUC_ATTACH_TIMEOUT:-60}"
HOST=127.0.0.1
RUN="$ROOT/run/cluster"
[[ "$DOMAIN" =~ ^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$ ]] || die "bad RECONMUC_DOMAIN '$DOMAIN'"
[[ -n "$SECRET" && "$SECRET" != *[\"\\]* ]] || die "RECONMUC_SECRET must be non-empty, without \" or \\"

scripts/install-deps.sh --cluster
use_jdk17
component_jar run-cluster

port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }
for p in "$C2S_PORT" "$COMPONENT_PORT" "$PG_PORT" "$DIST_PORT"; do
  ! port_open "$p" || die "port $p on $HOST is already in use (stop what runs there, or set RECONMUC_*_PORT)"
done

PIDS=()
NAMES=()
cleanup() {
  trap - EXIT INT TERM
  local i
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do   # the instances first, the database last
    if kill -0 "${PIDS[i]}" 2>/dev/null; then
      kill -TERM "${PIDS[i]}" 2>/dev/null || true
      for ((t = 0; t < 100; t++)); do kill -0 "${PIDS[i]}" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "${PIDS[i]}" 2>/dev/null || true
    fi
  done
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
started() { PIDS+=("$1"); NAMES+=("$2"); }
fail() {
  printf 'error: %s (logs under %s)\n' "$1" "$RUN" >&2
  exit 1
}
as_user() {   # as_user USER CMD...: as root, run as USER (setpriv keeps the open-files limit)
  local user="$1"; shift
  if [[ "$(id -u)" == 0 ]]; then setpriv --reuid="$user" --regid="$user" --init-groups -- "$@"; else "$@"; fi
}
exec_as() {   # the same, replacing the (background) shell, so that $! is the program's own pid
  local user="$1"; shift
  if [[ "$(id -u)" == 0 ]]; then exec setpriv --reuid="$user" --regid="$user" --init-groups -- "$@"; else exec "$@"; fi
}

# ---- Where the servers keep their files --------------------------------------------------------
# As root, PostgreSQL and ejabberd run as their own users, which cannot enter a checkout in a
# directory only its owner can (a 700 home, mktemp -d): their data and ejabberd's logs go to a
# directory of their own under the system's temporary directory, linked as run/cluster/state
# (the last run's is deleted when the next starts). Our own logs stay in run/cluster.
if [[ -L "$RUN/state" ]]; then
  old_state="$(readlink "$RUN/state")"
  [[ "$old_state" != "${TMPDIR:-/tmp}"/reconmuc-cluster.* ]] || rm -rf "$old_state"
fi
rm -rf "$RUN"
mkdir -p "$RUN/postgres"
STATE="$(mktemp -d "${TMPDIR:-/tmp}/reconmuc-cluster.XXXXXX")"
chmod 755 "$STATE"
ln -s "$STATE" "$RUN/state"

# ---- PostgreSQL: the store every instance shares ----------------------------------------------
PGDIR="$STATE/postgres"
mkdir -p "$PGDIR"
[[ "$(id -u)" != 0 ]] || chown postgres "$PGDIR"
PG_BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
as_user postgres "$PG_BIN/initdb" -D "$PGDIR/data" -U reconmuc --auth=trust --encoding=UTF8 --no-sync \
  >"$RUN/postgres/initdb.log" 2>&1 || fail "initdb failed"
exec_as postgres "$PG_BIN/postgres" -D "$PGDIR/data" -p "$PG_PORT" -k "$PGDIR" \
  -c listen_addresses=127.0.0.1 >"$RUN/postgres/postgres.log" 2>&1 </dev/null &
started $! postgres
for ((i = 0; i < 300; i++)); do port_open "$PG_PORT" && break; sleep 0.1; done
port_open "$PG_PORT" || fail "PostgreSQL did not start"
STORE="jdbc:postgresql://$HOST:$PG_PORT/postgres?user=reconmuc"

# ---- ejabberd, a bucket per connection ---------------------------------------------------------
EDIR="$STATE/ejabberd"   # ejabberd writes its own log here (run/cluster/state/ejabberd/logs)
mkdir -p "$EDIR/spool" "$EDIR/logs"
balancing="domain_balancing:
  \"$DOMAIN\":
    type: bare_destination
    component_number: $BUCKETS"
config="$(cat deploy/ejabberd/ejabberd.yml.template)"
config="${config//'${LISTEN_ADDRESS}'/$HOST}"
config="${config//'${MUC_ARCHIVE}'/false}"
config="${config//'${C2S_PORT}'/$C2S_PORT}"
config="${config//'${COMPONENT_PORT}'/$COMPONENT_PORT}"
config="${config//'${COMPONENT_DOMAIN}'/$DOMAIN}"
config="${config//'${COMPONENT_SECRET}'/$SECRET}"
config="${config//'${DOMAIN_BALANCING}'/$balancing}"
# The tests' limits (servers/…/EjabberdServer.Limits.TESTS).
config="${config//'${C2S_MAX_FSM_QUEUE}'/10000}"
config="${config//'${SM_MAX_ACK_QUEUE}'/5000}"
config="${config//'${MUC_MAX_USERS}'/5000}"
config="${config//'${MUC_MAX_USERS_ADMIN_THRESHOLD}'/20}"
config="${config//'${MUC_ROOM_MAX_USERS}'/1000}"
[[ "$config" != *'${'[A-Z]* ]] || fail "unfilled placeholder in the ejabberd config"
printf '%s\n' "$config" >"$EDIR/ejabberd.yml"
cp deploy/ejabberd/inetrc "$EDIR/inetrc"
[[ "$(id -u)" != 0 ]] || chown -R ejabberd:ejabberd "$EDIR"
mkdir -p "$RUN/ejabberd"
DIR="$EDIR" EJABBERD_DIST_PORT="$DIST_PORT" sh deploy/ejabberd/start-direct.sh >"$RUN/ejabberd/ejabberd.out" 2>&1 </dev/null &
started $! ejabberd
for ((i = 0; i < 300; i++)); do port_open "$C2S_PORT" && port_open "$COMPONENT_PORT" && break; sleep 0.1; done
port_open "$COMPONENT_PORT" || fail "ejabberd did not open its ports"
say "run-cluster: PostgreSQL on $HOST:$PG_PORT, ejabberd on $HOST:$C2S_PORT with $BUCKETS buckets for $DOMAIN"

# ---- the instances ----------------------------------------------------------------------------
start_instance() {   # start_instance N: instance muc$N, its pid at PIDS[N+1] (after PostgreSQL and ejabberd)
  # The secret and the store go through the environment: on the command line ps would show them.
  RECONMUC_SECRET="$SECRET" RECONMUC_STORE="$STORE" \
  java -jar "$JAR" --server-host "$HOST" --server-port "$COMPONENT_PORT" --domain "$DOMAIN" \
    --instance "muc$1" --connections "$CONNECTIONS" --room-default-persistent true \
    >>"$RUN/instance-$1.log" 2>&1 </dev/null &
  PIDS[$1 + 1]=$!
  NAMES[$1 + 1]="instance muc$1"
}
await_attached() {   # await_attached N FROM_LINE: muc$N attached since line FROM_LINE of its log
  for ((i = 0; i < ATTACH_TIMEOUT * 10; i++)); do
    tail -n +"$2" "$RUN/instance-$1.log" | grep -q "component \(re\)\?connected to" && return 0
    sleep 0.1
  done
  fail "instance muc$1 did not attach (see $RUN/instance-$1.log)"
}
buckets_held() {   # the connections every running instance holds, as its heartbeat says: "muc1-…=2 …"
  "$PG_BIN/psql" -h "$HOST" -p "$PG_PORT" -U reconmuc -d postgres -Atc \
    "SELECT string_agg(id || '=' || connections, ' ' ORDER BY id) FROM reconmuc_instance WHERE heartbeat_ms > 0"
}
rolling_restart() {
  local n lines held
  for ((n = 1; n <= INSTANCES; n++)); do
    say "run-cluster: rolling restart: stopping muc$n (pid ${PIDS[n + 1]})"
    kill -TERM "${PIDS[n + 1]}" 2>/dev/null || true
    for ((i = 0; i < 300; i++)); do kill -0 "${PIDS[n + 1]}" 2>/dev/null || break; sleep 0.1; done
    kill -0 "${PIDS[n + 1]}" 2>/dev/null && fail "muc$n did not stop within 30 s"
    wait "${PIDS[n + 1]}" 2>/dev/null || true
    lines=$(( $(wc -l <"$RUN/instance-$n.log") + 1 ))
    start_instance "$n"
    await_attached "$n" "$lines"
    for ((i = 0; i < 300; i++)); do
      held="$(buckets_held)"
      [[ "$(grep -o "=$CONNECTIONS\b" <<<"$held" | wc -l)" == "$INSTANCES" && "$(wc -w <<<"$held")" == "$INSTANCES" ]] && break
      sleep 0.1
    done
    say "run-cluster: rolling restart: muc$n is back (pid ${PIDS[n + 1]}); buckets held: $held"
  done
}
for ((n = 1; n <= INSTANCES; n++)); do
  start_instance "$n"
done
for ((n = 1; n <= INSTANCES; n++)); do
  await_attached "$n" 1
done

cat <<INFO

================================================================================
 ReConMUC: $INSTANCES instances x $CONNECTIONS connections serving $DOMAIN through ejabberd
 Connect an XMPP client to $HOST port $C2S_PORT WITHOUT TLS: any name and password on
 insecure.localhost, SASL ANONYMOUS on anon.localhost, or an account registered on localhost;
 join e.g. lobby@$DOMAIN. Which instance serves a room: in PostgreSQL,
   psql -h $HOST -p $PG_PORT -U reconmuc postgres -c 'SELECT room, owner, epoch FROM reconmuc_lease'
 Kill one instance (kill -9 PID): a survivor takes its connections and rooms within seconds.
 Rolling restart (each instance stopped, started, given its buckets back): kill -HUP $$
$(for ((n = 0; n < ${#PIDS[@]}; n++)); do printf '   %-14s pid %s\n' "${NAMES[n]}" "${PIDS[n]}"; done)
 Logs: $RUN
================================================================================
INFO

if (( check == 2 )); then
  rolling_restart
fi
if (( check )); then
  say "run-cluster --check: OK, stopping"
  exit 0
fi
restart_asked=0
trap 'restart_asked=1' HUP
say "Press Ctrl-C to stop; kill -HUP $$ for a rolling restart of the instances."
while true; do
  if (( restart_asked )); then
    restart_asked=0
    rolling_restart
  fi
  kill -0 "${PIDS[1]}" 2>/dev/null || fail "ejabberd exited"
  sleep 1 &
  wait $! || true
done
