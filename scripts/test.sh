#!/usr/bin/env bash
# README command 2: install what the tests need, then build and run every test in one Maven build:
# unit tests (Surefire) and integration tests against real Prosody, ejabberd and Openfire (Failsafe), a
# short fuzz of every parser of outside input (fuzzing/, scripts/fuzz.sh), and the web client's tests
# (web-client/test.sh: its decoder against the spec's vectors under Node, and the Converse.js plugin in
# headless Chromium against real Prosody + the component), modules side by side where they can be.
# Extra arguments go to Maven, e.g. scripts/test.sh -Dit.test=XmppServerSmokeIT
# RECONMUC_SKIP_WEB=1 skips the web client's tests; RECONMUC_FUZZ_SECONDS (5) is how long each fuzz test
# fuzzes (0 skips it); RECONMUC_TEST_THREADS (2) is how many modules build at once (1: one after another).
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
# One build for the whole suite: the Java tests, then, as modules of their own (profile whole-suite), the
# short fuzz and the web client's tests; -T runs modules that do not depend on each other side by side.
maven=(mvn -B verify -T "${RECONMUC_TEST_THREADS:-2}" -Pwhole-suite -Dfuzz.seconds="${RECONMUC_FUZZ_SECONDS:-5}")
[[ "${RECONMUC_SKIP_WEB:-}" == 1 ]] && maven+=(-Dweb.skip=true)
"${maven[@]}" "$@"
# The operator's alert rules fire on what each is for, and not on a healthy instance.
(cd deploy/prometheus && promtool test rules reconmuc-alerts.test.yml)
