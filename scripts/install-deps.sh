#!/usr/bin/env bash
# Installs what ReConMUC needs from Debian/Ubuntu packages - only what is missing.
#   --runtime (default)  JDK 17, Maven, Prosody (+ prosody-modules, lua-zlib, lua-unbound)
#   --cluster            the same plus ejabberd and PostgreSQL (scripts/run-cluster.sh: several instances)
#   --test               the same plus ejabberd (the integration tests run against both), iproute2 and
#                        ethtool (the replay's veth link), postgresql (the store's tests on PostgreSQL),
#                        and for Joom's window test Xvfb, a JRE with the X11 toolkit, and a font;
#                        for the web client's browser test Chromium, and Node.js and npm when missing;
#                        for the container image's tests podman (with runc), podman-compose and debootstrap
# Uses sudo for apt-get when not root. Runs apt-get update only if something must be installed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/common.sh
. "$ROOT/scripts/common.sh"

mode=runtime
for arg in "$@"; do
  case "$arg" in
    --runtime) mode='runtime' ;;
    --test) mode='test' ;;
    --cluster) mode='cluster' ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$arg' (use --runtime, --cluster or --test)" ;;
  esac
done

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

have_dpkg=1
command -v dpkg-query >/dev/null 2>&1 || have_dpkg=0

missing=()
need_jdk=0
find_jdk17 >/dev/null || need_jdk=1
command -v mvn >/dev/null 2>&1 || missing+=(maven)
packages=(prosody prosody-modules lua-zlib lua-unbound)
# ejabberd: the ITs run against it too; iproute2 and ethtool: the veth link of the replay's real-link
# measurement (VethLinkIT); xvfb and a font: Joom's window test; postgresql: PostgresStoreIT starts its
# own cluster as a local process (PostgresServer; the package's own cluster is not used).
[[ "$mode" == test ]] && packages+=(ejabberd iproute2 ethtool xvfb fonts-dejavu-core postgresql)
# prometheus: promtool tests the alert rules in deploy/prometheus (scripts/test.sh).
[[ "$mode" == test ]] && packages+=(prometheus)
[[ "$mode" == cluster ]] && packages+=(ejabberd postgresql)
# The web client's tests: Debian's Chromium (driven by puppeteer-core; no browser is downloaded), and
# Node.js with npm only where they are missing. A Node.js from elsewhere (nodesource's package, which
# bundles npm under /usr/lib/node_modules/npm) is kept: Debian's npm package would pull Debian's nodejs.
if [[ "$mode" == test ]]; then
  packages+=(chromium)
  # The container image's tests (reconmuc-testcontainers/, scripts/container-image.sh): the engine,
  # runc (the rlimit note below), the compose tool an operator on Debian has, debootstrap for
  # the local base images, jq for the runtime wrapper; dnsname: compose services find each other by
  # name on podman's CNI networks (Debian's podman 4.3).
  packages+=(podman runc podman-compose golang-github-containernetworking-plugin-dnsname debootstrap jq)
  if ! command -v node >/dev/null 2>&1; then
    packages+=(nodejs npm)
  elif ! command -v npm >/dev/null 2>&1 && [[ ! -f /usr/lib/node_modules/npm/bin/npm-cli.js ]]; then
    packages+=(npm)
  fi
fi
if (( have_dpkg )); then
  for p in "${packages[@]}"; do
    installed "$p" || missing+=("$p")
  done
else
  command -v prosody >/dev/null 2>&1 || missing+=(prosody prosody-modules lua-zlib lua-unbound)
  [[ "$mode" != runtime && ! -x /usr/bin/erl ]] && missing+=(ejabberd)
  [[ "$mode" != runtime ]] && ! compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null && missing+=(postgresql)
fi

# Joom's window test draws Swing on Xvfb: a headless JDK lacks the X11 toolkit (libawt_xawt).
need_jre_x11=0
if [[ "$mode" == test ]] && home="$(find_jdk17)" && [[ ! -e "$home/lib/libawt_xawt.so" ]]; then
  need_jre_x11=1
fi

# Some machines refuse a container's setrlimit calls (EPERM, even for the limits it already has), and
# podman always asks the runtime to set them: there every `podman run` fails with "error setting
# rlimit". Only there, podman is given an OCI runtime that drops the rlimits and then runs runc
# (scripts/container/runc-without-rlimits), named in containers.conf.d for every podman command.
podman_runtime_without_rlimits() {
  [[ "$mode" == test ]] && command -v podman >/dev/null 2>&1 || return 0
  local probe conf=/etc/containers/containers.conf.d/reconmuc-runtime.conf
  local wrapper=/usr/local/libexec/reconmuc/runc-without-rlimits
  probe="$(mktemp -d)"
  # An empty root file system: a working runtime gets as far as "executable file not found".
  # (once installed, a newer wrapper from the repository replaces it)
  if [[ "$(podman run --rm --rootfs "$probe" /probe 2>&1)" != *"error setting rlimit"* ]] \
     && { [[ ! -f "$conf" ]] || cmp -s "$ROOT/scripts/container/runc-without-rlimits" "$wrapper"; }; then
    rm -rf "$probe"
    return 0
  fi
  say "install-deps: podman cannot set rlimits here; installing $wrapper as its runtime ($conf)"
  "${SUDO[@]}" install -D -m 755 "$ROOT/scripts/container/runc-without-rlimits" "$wrapper"
  "${SUDO[@]}" mkdir -p "$(dirname "$conf")"
  printf '%s\n' '# scripts/install-deps.sh: this machine refuses setrlimit in containers.' '[engine]' \
    'runtime = "runc-without-rlimits"' '[engine.runtimes]' "runc-without-rlimits = [\"$wrapper\"]" \
    | "${SUDO[@]}" tee "$conf" >/dev/null
  if [[ "$(podman run --rm --rootfs "$probe" /probe 2>&1)" == *"error setting rlimit"* ]]; then
    rm -rf "$probe"
    die "podman still fails with the rlimit error with $wrapper"
  fi
  rm -rf "$probe"
}

SUDO=()
if [[ "$(id -u)" != 0 ]]; then
  SUDO=(sudo)
fi
if (( need_jdk == 0 )) && (( need_jre_x11 == 0 )) && (( ${#missing[@]} == 0 )); then
  podman_runtime_without_rlimits
  say "install-deps ($mode): everything is already installed"
  exit 0
fi

command -v apt-get >/dev/null 2>&1 \
  || die "not a Debian/Ubuntu system; please install: JDK 17+, Maven, ${packages[*]}"
if [[ "$(id -u)" != 0 ]]; then
  command -v sudo >/dev/null 2>&1 || die "not root and no sudo: cannot install ${missing[*]}"
fi
apt_get() { "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@"; }

say "install-deps ($mode): updating the package lists"
apt_get update -q
if (( need_jdk )); then
  # Debian 12 / Ubuntu 22.04+: openjdk-17; newer releases may only have a newer default JDK.
  if apt-cache show openjdk-17-jdk-headless >/dev/null 2>&1; then
    missing=(openjdk-17-jdk-headless "${missing[@]}")
  else
    missing=(default-jdk-headless "${missing[@]}")
  fi
fi
if (( need_jre_x11 )) || { (( need_jdk )) && [[ "$mode" == test ]]; }; then
  if apt-cache show openjdk-17-jre >/dev/null 2>&1; then
    missing+=(openjdk-17-jre)
  else
    missing+=(default-jre)
  fi
fi
say "install-deps ($mode): installing ${missing[*]}"
apt_get install -y -q --no-install-recommends "${missing[@]}"

# On a machine with systemd, installing prosody/ejabberd starts a system-wide server on
# port 5222 with Debian's default config. The project starts its own servers (run-local,
# tests), so a service that this script just installed is stopped and disabled again.
if [[ -d /run/systemd/system ]] && command -v systemctl >/dev/null 2>&1; then
  for svc in prosody ejabberd postgresql; do
    if [[ " ${missing[*]} " == *" $svc "* ]] && systemctl is-active --quiet "$svc" 2>/dev/null; then
      say "install-deps: stopping and disabling the system-wide $svc service that the package started"
      "${SUDO[@]}" systemctl disable --now "$svc" || warn "could not stop $svc.service"
    fi
  done
fi
find_jdk17 >/dev/null || die "a JDK 17+ is still missing after the installation"
podman_runtime_without_rlimits
say "install-deps ($mode): done"
