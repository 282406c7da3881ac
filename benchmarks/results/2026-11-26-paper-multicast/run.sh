#!/usr/bin/env bash
# Issue 28: the paper's bandwidth phase (ejabberd, 800 bots in one room, half in each world, 540
# messages at 6/s) again now that the component's broadcasts cross the XEP-0114 link through
# ejabberd's mod_multicast (and ejabberd's own MUC may use it too: the `own_muc` acl): the occupants'
# bytes must be what they were (../2026-11-26-paper-final, before multicast). Run on an otherwise
# idle machine; the paper command writes its own README with the load averages and commit.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
java -Xmx6g -jar "$root/irc-replay/target/irc-replay.jar" paper --phases bandwidth \
    --scenarios standard,off,relaxed:v=10:a=compact-live/compact-deflate-live \
    --out "$root/benchmarks/results/2026-11-26-paper-multicast" | grep -v '\[#\|\[\.'
