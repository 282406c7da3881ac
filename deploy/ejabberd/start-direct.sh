#!/bin/sh
# Start a local ejabberd 23.01 node in the foreground WITHOUT ejabberdctl, exec-ing all the
# way down so that the PID of this script is the PID of beam.smp (SIGTERM it to stop cleanly).
#   DIR                 run directory holding ejabberd.yml, inetrc, spool/, logs/ (required)
#   EJABBERD_DIST_PORT  Erlang distribution port on 127.0.0.1, no epmd (default 15210)
#   EJABBERD_NODE       node name (default reconmuc_$EJABBERD_DIST_PORT@localhost)
# As root it drops to user 'ejabberd' with setpriv (no PAM, so the open-files limit is kept);
# DIR must then be owned by 'ejabberd'.
set -eu
D="${DIR:?set DIR to the ejabberd run directory}"
PORT="${EJABBERD_DIST_PORT:-15210}"
NODE="${EJABBERD_NODE:-reconmuc_$PORT@localhost}"
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
if [ "$(id -u)" = 0 ]; then
  set -- setpriv --reuid=ejabberd --regid=ejabberd --init-groups
else
  set --
fi
exec "$@" /usr/bin/erl -sname "$NODE" -setcookie reconmuc \
  -kernel inet_dist_use_interface '{127,0,0,1}' -erl_epmd_port "$PORT" -start_epmd false \
  +K true +P 250000 -mnesia dir "\"$D/spool\"" -s ejabberd -noshell -noinput
