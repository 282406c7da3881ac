#!/usr/bin/env bash
# Starts Joom, the desktop client (joom-client/): builds its jar first if it is missing.
# Arguments go to Joom (--help lists them), e.g. with scripts/run-local.sh running:
#   scripts/joom.sh --jid alice@insecure.localhost --password x --room lobby@reconmuc.localhost --nick Alice --connect
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/common.sh
. "$ROOT/scripts/common.sh"

use_jdk17
JAR="$ROOT/joom-client/target/joom.jar"
if [[ ! -f "$JAR" ]]; then
  say "joom: building $JAR (once)"
  (cd "$ROOT" && mvn -B -q -DskipTests -pl joom-client -am package)
fi
exec java -jar "$JAR" "$@"
