# shellcheck shell=bash
# Sourced by scripts/test.sh: the container engine for the image's tests (reconmuc-testcontainers/).
# Testcontainers talks the Docker API; with podman that is `podman system service` on a unix
# socket, with Ryuk off (Testcontainers' documented setup for Podman; the tests remove what they
# start). start_container_engine starts it and exports DOCKER_HOST, TESTCONTAINERS_RYUK_DISABLED and
# RECONMUC_CONTAINER_TESTS=required (the tests then fail rather than skip when the engine is gone);
# the service stops with the calling shell. Where a Docker engine already answers (DOCKER_HOST or
# /var/run/docker.sock) it is used as it is. Where no engine can run a container (no podman here, or
# podman refuses even with the runtime that scripts/install-deps.sh sets up) it says why and the
# container tests skip themselves.

CONTAINER_ENGINE_PID=""
CONTAINER_ENGINE_DIR=""

stop_container_engine() {
  if [[ -n "$CONTAINER_ENGINE_PID" ]]; then
    kill -TERM "$CONTAINER_ENGINE_PID" 2>/dev/null || true
    wait "$CONTAINER_ENGINE_PID" 2>/dev/null || true
    CONTAINER_ENGINE_PID=""
  fi
  [[ -z "$CONTAINER_ENGINE_DIR" ]] || rm -rf "$CONTAINER_ENGINE_DIR"
  CONTAINER_ENGINE_DIR=""
}

start_container_engine() {
  if [[ -n "${DOCKER_HOST:-}" || -S /var/run/docker.sock ]] && command -v docker >/dev/null 2>&1 \
     && docker version >/dev/null 2>&1; then
    say "container engine: the Docker engine at ${DOCKER_HOST:-/var/run/docker.sock}"
    export RECONMUC_CONTAINER_TESTS=required
    return 0
  fi
  if ! command -v podman >/dev/null 2>&1; then
    warn "no container engine (podman): the container image's tests are skipped"
    return 0
  fi
  local probe answer
  probe="$(mktemp -d "${TMPDIR:-/tmp}/reconmuc-probe.XXXXXX")"
  # An empty root file system: an engine that can run containers gets as far as not finding /probe.
  answer="$(podman run --rm --rootfs "$probe" /probe 2>&1)" || true
  rm -rf "$probe"
  if [[ "$answer" != *"/probe"*"no such file"* && "$answer" != *"/probe"*"not found"* ]]; then
    warn "podman cannot run a container here, so the container image's tests are skipped (on a machine that refuses rlimits, scripts/install-deps.sh --test gives podman a runtime without them): $answer"
    return 0
  fi
  CONTAINER_ENGINE_DIR="$(mktemp -d "${TMPDIR:-/tmp}/reconmuc-podman.XXXXXX")"
  local dir="$CONTAINER_ENGINE_DIR"
  podman system service --time=0 "unix://$dir/podman.sock" >"$dir/service.log" 2>&1 &
  CONTAINER_ENGINE_PID=$!
  trap stop_container_engine EXIT
  local i
  for ((i = 0; i < 300; i++)); do
    if podman --url "unix://$dir/podman.sock" version >/dev/null 2>&1; then
      export DOCKER_HOST="unix://$dir/podman.sock" TESTCONTAINERS_RYUK_DISABLED=true RECONMUC_CONTAINER_TESTS=required
      say "container engine: podman's Docker API at $DOCKER_HOST (pid $CONTAINER_ENGINE_PID)"
      return 0
    fi
    kill -0 "$CONTAINER_ENGINE_PID" 2>/dev/null || break
    sleep 0.1
  done
  cat "$dir/service.log" >&2
  die "podman system service did not answer on $dir/podman.sock"
}
