#!/usr/bin/env bash
# The stranded-room sweep (a48fc9b, 30617ba): each heartbeat lets go a room whose connection this
# instance closed and forgot three heartbeats ago. It must never fire in these runs (no path leaves
# rooms behind today) and change nothing: the runs of ../2026-11-27-plain-path (kill, rolling
# restart, rolling restart with one relaxed listener per room), once each at this checkout.
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here exec "$here/../2026-11-27-plain-path/run.sh"
