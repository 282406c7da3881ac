#!/usr/bin/env bash
# Builds the ReConMUC image from the repository's Dockerfile with podman (or docker), from the jar `mvn package`
# built (component/target/reconmuc-component.jar, JAR=given), on base images made here from Debian's
# packages instead of the public ones (no registry is needed):
#   localhost/reconmuc-base/debian:bookworm  debootstrap --variant=minbase from the Debian mirror apt uses
#   localhost/reconmuc-base/jre:17           + openjdk-17-jre-headless   (RUNTIME_IMAGE; scripts/container/jre.Containerfile)
# The base images stay in the engine's storage and are rebuilt only when missing or when their recipe
# (BASE_RECIPE below, the Containerfile) changed: 1 to 3 min once on 2 busy cores, then nothing.
#   scripts/container-image.sh [TAG]      (TAG: localhost/reconmuc:test)
# Prints the image's name as its last line. The tests of reconmuc-testcontainers/ run it.
# Why JAR=given rather than the Dockerfile's default (Maven inside the build): the image then holds
# the very jar the suite has just built and tested, and the build neither repeats a minute or more of
# Maven nor needs a Maven repository inside it (offline here, and behind a TLS proxy whose CA the
# build image does not know). The Dockerfile's Maven path is the operator's, unchanged.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/common.sh
. "$ROOT/scripts/common.sh"

TAG="${1:-localhost/reconmuc:test}"
DEBIAN_IMAGE=localhost/reconmuc-base/debian:bookworm
JRE_IMAGE=localhost/reconmuc-base/jre:17
RECIPE_LABEL=org.reconmuc.base.recipe
# podman, or docker where there is no podman (CONTAINER_ENGINE chooses): the same commands.
ENGINE="${CONTAINER_ENGINE:-}"
if [[ -z "$ENGINE" ]]; then
  if command -v podman >/dev/null 2>&1; then ENGINE=podman; elif command -v docker >/dev/null 2>&1; then ENGINE=docker; fi
fi
[[ -n "$ENGINE" ]] || die "no podman (scripts/install-deps.sh --test installs it) and no docker"
SUDO=()
[[ "$(id -u)" == 0 ]] || SUDO=(sudo)

# What the base images are made of: bump BASE_RECIPE when the steps below change how they are made.
BASE_RECIPE=1
debian_recipe="$BASE_RECIPE"
jre_recipe="$BASE_RECIPE-$(sha256sum <"$ROOT/scripts/container/jre.Containerfile" | cut -c1-12)"
current() { # IMAGE RECIPE: true when the image exists and was made by that recipe
  [[ "$("$ENGINE" image inspect --format "{{index .Labels \"$RECIPE_LABEL\"}}" "$1" 2>/dev/null)" == "$2" ]]
}

# The Debian mirror apt uses (deb822 or one-line sources), deb.debian.org when there is none.
debian_mirror() {
  local uri
  uri="$(sed -n 's/^URIs:[[:space:]]*\(http[^[:space:]]*\/debian\)\/\{0,1\}[[:space:]]*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)"
  [[ -n "$uri" ]] || uri="$(awk '$1 == "deb" && $2 ~ /^http.*\/debian\/?$/ {print $2; exit}' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null)"
  printf '%s\n' "${uri:-http://deb.debian.org/debian}"
}

if ! current "$DEBIAN_IMAGE" "$debian_recipe"; then
  command -v debootstrap >/dev/null 2>&1 || die "no debootstrap (scripts/install-deps.sh --test installs it)"
  mirror="$(debian_mirror)"
  rootfs="$(mktemp -d "${TMPDIR:-/tmp}/reconmuc-rootfs.XXXXXX")"
  trap '"${SUDO[@]}" rm -rf "$rootfs"' EXIT
  say "container-image: $DEBIAN_IMAGE from debootstrap --variant=minbase bookworm $mirror"
  "${SUDO[@]}" debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$rootfs.log" 2>&1 \
    || { tail -n 20 "$rootfs.log" >&2; die "debootstrap failed (log: $rootfs.log)"; }
  rm -f "$rootfs.log"
  # Neither the downloaded packages nor the package lists belong in an image.
  "${SUDO[@]}" find "$rootfs/var/cache/apt/archives" "$rootfs/var/lib/apt/lists" -type f -delete
  "${SUDO[@]}" tar -C "$rootfs" -c . \
    | "$ENGINE" import --change "LABEL $RECIPE_LABEL=$debian_recipe" --change 'CMD ["bash"]' - "$DEBIAN_IMAGE" >/dev/null \
    || die "$ENGINE import of the debootstrapped tree failed"
  "${SUDO[@]}" rm -rf "$rootfs"
  trap - EXIT
fi
if ! current "$JRE_IMAGE" "$jre_recipe"; then
  say "container-image: $JRE_IMAGE (openjdk-17-jre-headless on $DEBIAN_IMAGE)"
  "$ENGINE" build -q --network host --build-arg DEBIAN_IMAGE="$DEBIAN_IMAGE" --label "$RECIPE_LABEL=$jre_recipe" \
    -f scripts/container/jre.Containerfile -t "$JRE_IMAGE" scripts/container >/dev/null
fi

JAR=component/target/reconmuc-component.jar
[[ -f "$JAR" ]] || die "no $JAR: run mvn -B package first"
# JAR=given takes the jar as it is: BUILD_IMAGE needs only a shell then, and the JRE image has one.
say "container-image: $TAG from Dockerfile (JAR=given, BUILD_IMAGE and RUNTIME_IMAGE=$JRE_IMAGE)"
"$ENGINE" build -q --network host --build-arg JAR=given --build-arg BUILD_IMAGE="$JRE_IMAGE" --build-arg RUNTIME_IMAGE="$JRE_IMAGE" \
  -f Dockerfile -t "$TAG" . >/dev/null
# The image this tag named before (a new jar makes a new one): ours by the base's label, now unnamed.
"$ENGINE" image prune -f --filter "label=$RECIPE_LABEL" >/dev/null
printf '%s\n' "$TAG"
