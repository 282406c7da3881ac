#!/usr/bin/env bash
# README command 2: install what the tests need, then build and run every test:
# unit tests (Surefire) and integration tests against real Prosody and ejabberd (Failsafe).
# Extra arguments go to Maven, e.g. scripts/test.sh -Dit.test=XmppServerSmokeIT
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/common.sh
. "$ROOT/scripts/common.sh"

scripts/install-deps.sh --test
use_jdk17
exec mvn -B verify "$@"
