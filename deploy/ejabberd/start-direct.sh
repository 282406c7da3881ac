#!/bin/sh
# Start a local ejabberd 23.01 node in the foreground WITHOUT ejabberdctl, exec-ing all the
# way down so that the PID of this script is the PID of beam.smp (SIGTERM it to stop cleanly).
#   DIR                    run directory holding ejabberd.yml, inetrc, spool/, logs/ (required)
#   EJABBERD_DIST_PORT     Erlang distribution port, no epmd (default 15210): the node listens on it
#                          and looks for every other node on it too, so a cluster's nodes share it
#                          and differ by address
#   EJABBERD_DIST_ADDRESS  the loopback address distribution listens on (default 127.0.0.1, with a
#                          short node name); given, the node gets a long name at that address
#   EJABBERD_NODE          node name (default reconmuc_$EJABBERD_DIST_PORT@localhost; with an
#                          address it must be name@address)
#   EJABBERD_JOIN          a running node whose Mnesia cluster this one joins before ejabberd starts,
#                          as ejabberdctl join_cluster would (no ejabberdctl: it needs epmd)
#   EJABBERD_ERL_FLAGS     more emulator flags, split at spaces (e.g. scheduler busy-wait)
# The open-files soft limit is raised to the hard one (a connection is a file).
# As root it drops to user 'ejabberd' with setpriv (no PAM, so the open-files limit is kept);
# DIR must then be owned by 'ejabberd'.
set -eu
D="${DIR:?set DIR to the ejabberd run directory}"
PORT="${EJABBERD_DIST_PORT:-15210}"
ADDRESS="${EJABBERD_DIST_ADDRESS:-}"
JOIN="${EJABBERD_JOIN:-}"
if [ -n "$ADDRESS" ]; then
  NODE="${EJABBERD_NODE:?set EJABBERD_NODE to name@$ADDRESS}"
  NAMING=-name
  INTERFACE="{$(echo "$ADDRESS" | tr . ,)}"
else
  NODE="${EJABBERD_NODE:-reconmuc_$PORT@localhost}"
  NAMING=-sname
  INTERFACE='{127,0,0,1}'
fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
export EJABBERD_CONFIG_PATH="$D/ejabberd.yml" EJABBERD_LOG_PATH="$D/logs/ejabberd.log" \
       ERL_INETRC="$D/inetrc" \
       ERL_MAX_PORTS=32000 ERL_MAX_ETS_TABLES=1400 ERL_CRASH_DUMP_BYTES=0 HOME="$D"
# Debian installs ejabberd's Erlang applications under /usr/lib/<multiarch>/.
ERL_LIBS=
for app in /usr/lib/*/ejabberd-[0-9]*; do
  [ -d "$app" ] || continue
  ERL_LIBS="$(dirname "$app")"
  break
done
export ERL_LIBS="${ERL_LIBS:?ejabberd is not installed (no /usr/lib/*/ejabberd-*)}"
cd "$D/spool"
# Joining: Mnesia starts with the running node as an extra db node (its schema merged into ours),
# our schema copy goes to disc, and only then ejabberd starts, which adds a local copy of each of
# its tables of the type the cluster has (ejabberd_mnesia): the steps of ejabberd_cluster_mnesia:join,
# done before the node listens, so a node that answers on its ports is in the cluster. A node that
# cannot reach it stops here. Started again later, its disc schema is already there.
set -- /usr/bin/erl "$NAMING" "$NODE" -setcookie reconmuc \
  -kernel inet_dist_use_interface "$INTERFACE" -erl_epmd_port "$PORT" -start_epmd false \
  +K true +P 250000 ${EJABBERD_ERL_FLAGS:-} -mnesia dir "\"$D/spool\""
if [ -n "$JOIN" ]; then
  set -- "$@" -mnesia extra_db_nodes "['$JOIN']" -eval "ok = mnesia:start(),
    true = lists:member('$JOIN', mnesia:system_info(running_db_nodes)),
    case mnesia:change_table_copy_type(schema, node(), disc_copies) of
      {atomic, ok} -> ok;
      {aborted, {already_exists, schema, _, disc_copies}} -> ok
    end,
    io:format(\"joined the Mnesia cluster of ~p: ~p~n\", ['$JOIN', mnesia:system_info(running_db_nodes)])"
fi
set -- "$@" -s ejabberd -noshell -noinput
if [ "$(id -u)" = 0 ]; then
  exec setpriv --reuid=ejabberd --regid=ejabberd --init-groups "$@"
fi
exec "$@"
