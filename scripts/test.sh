#!/usr/bin/env bash
# README command 2: install what the tests need, then build and run every test:
# unit tests (Surefire) and integration tests against real Prosody and ejabberd (Failsafe), then
# the web client's tests (web-client/test.sh: its decoder against the spec's vectors under Node, and
# the Converse.js plugin in headless Chromium against real Prosody + the component; about a minute).
# Extra arguments go to Maven, e.g. scripts/test.sh -Dit.test=XmppServerSmokeIT
# RECONMUC_SKIP_WEB=1 skips the web client's tests; RECONMUC_FUZZ_SECONDS (5) is how long each fuzz test
# fuzzes after mvn verify (0 skips it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/common.sh
. "$ROOT/scripts/common.sh"

scripts/install-deps.sh --test
use_jdk17
# The container image's tests (reconmuc-testcontainers/) need an engine's Docker API: podman's, started
# for this run where no Docker answers (scripts/container-engine.sh); they build the image themselves.
# shellcheck source=scripts/container-engine.sh
. "$ROOT/scripts/container-engine.sh"
start_container_engine
mvn -B verify "$@"
# The operator's alert rules fire on what each is for, and not on a healthy instance.
(cd deploy/prometheus && promtool test rules reconmuc-alerts.test.yml)
# A short coverage-guided fuzz of every parser of outside input (scripts/fuzz.sh; component/README.md).
FUZZ_SECONDS="${RECONMUC_FUZZ_SECONDS:-5}"
if [[ "$FUZZ_SECONDS" != 0 ]]; then
  scripts/fuzz.sh "$FUZZ_SECONDS" -o
fi
if [[ "${RECONMUC_SKIP_WEB:-}" != 1 ]]; then
  web-client/test.sh
fi
