#!/usr/bin/env bash
# The container image's size and start time, against the JRE base image alone.
#   benchmarks/container/measure.sh [RUNS]     (5; after scripts/container-image.sh, and the Prosody
#                                               image of deploy/compose: localhost/reconmuc-prosody:test)
# Start time: from `podman run -d` until the component's log says it is attached to a Prosody in a
# container on the same podman network (polled every 0.1 s), against `podman run --rm` of the JRE
# base image running `java -version`, and of the Debian base running `true` (the engine alone).
# Prints Markdown: the sizes (podman's, and what `podman image inspect` counts) and per-run seconds.
set -euo pipefail
RUNS="${1:-5}"
IMAGE="${RECONMUC_IMAGE:-localhost/reconmuc:test}"
JRE=localhost/reconmuc-base/jre:17
DEBIAN=localhost/reconmuc-base/debian:bookworm
PROSODY=localhost/reconmuc-prosody:test
NET="reconmuc-bench-$$"

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
cleanup() {
  podman rm -f -v -t 0 "$NET-prosody" "$NET-reconmuc" >/dev/null 2>&1 || true
  podman network rm -f "$NET" >/dev/null 2>&1 || true
}
trap cleanup EXIT

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; podman $(podman version --format '{{.Client.Version}}')"
echo
echo "| image | size (podman images) | bytes (inspect) |"
echo "|---|---:|---:|"
for i in "$DEBIAN" "$JRE" "$IMAGE"; do
  echo "| \`$i\` | $(podman images --format '{{.Size}}' "$i" | head -n 1) | $(podman image inspect --format '{{.Size}}' "$i") |"
done
echo

podman network create "$NET" >/dev/null
podman run -d --name "$NET-prosody" --network "$NET" --network-alias prosody -e XMPP_DOMAIN=bench.test \
  -e RECONMUC_DOMAIN=muc.bench.test -e RECONMUC_SECRET=bench -e XMPP_C2S_REQUIRE_ENCRYPTION=false "$PROSODY" >/dev/null
for ((i = 0; i < 300; i++)); do
  podman exec "$NET-prosody" /usr/local/bin/prosody-healthcheck >/dev/null 2>&1 && break
  sleep 0.2
done

echo "| run | ReConMUC: run -d until attached (s) | JRE base: run --rm java -version (s) | Debian base: run --rm true (s) |"
echo "|---:|---:|---:|---:|"
for ((r = 1; r <= RUNS; r++)); do
  t0="$(now)"
  podman run -d --name "$NET-reconmuc" --network "$NET" -e RECONMUC_SERVER_HOST=prosody \
    -e RECONMUC_DOMAIN=muc.bench.test -e RECONMUC_SECRET=bench "$IMAGE" >/dev/null
  attached=""
  for ((i = 0; i < 1200; i++)); do
    if podman logs "$NET-reconmuc" 2>&1 | grep -q 'component connected to'; then attached="$(now)"; break; fi
    sleep 0.1
  done
  [[ -n "$attached" ]] || { podman logs "$NET-reconmuc" | tail -n 20 >&2; echo "not attached within 120 s" >&2; exit 1; }
  podman rm -f -v -t 0 "$NET-reconmuc" >/dev/null
  t1="$(now)"; podman run --rm "$JRE" java -version >/dev/null 2>&1; t2="$(now)"
  podman run --rm "$DEBIAN" true; t3="$(now)"
  echo "| $r | $(seconds "$t0" "$attached") | $(seconds "$t1" "$t2") | $(seconds "$t2" "$t3") |"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
