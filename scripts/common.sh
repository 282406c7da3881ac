# shellcheck shell=bash
# Shared helpers for scripts/*.sh (sourced, not run).

say() { printf '%s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Major version of a javac binary (8 for 1.8), or 0.
javac_major() {
  local v
  v="$("$1" -version 2>&1 | awk '/^javac /{print $2; exit}')" || true
  v="${v%%[-+]*}"
  case "$v" in
    1.*) v="${v#1.}" ;;
  esac
  v="${v%%.*}"
  [[ "$v" =~ ^[0-9]+$ ]] && printf '%s\n' "$v" || printf '0\n'
}

# Succeeds if a JDK >= 17 is on PATH or under /usr/lib/jvm; prints its home.
find_jdk17() {
  local javac home
  if javac="$(command -v javac 2>/dev/null)" && (( $(javac_major "$javac") >= 17 )); then
    home="$(dirname "$(dirname "$(readlink -f "$javac")")")"
    printf '%s\n' "$home"
    return 0
  fi
  for javac in /usr/lib/jvm/java-17-openjdk-*/bin/javac /usr/lib/jvm/*/bin/javac; do
    if [[ -x "$javac" ]] && (( $(javac_major "$javac") >= 17 )); then
      printf '%s\n' "$(dirname "$(dirname "$javac")")"
      return 0
    fi
  done
  return 1
}

# Make sure java/javac/mvn use a JDK >= 17 (the default one may be older).
use_jdk17() {
  local home
  home="$(find_jdk17)" || die "no JDK 17 or newer found; run scripts/install-deps.sh"
  if [[ -z "${JAVA_HOME:-}" ]] || (( $(javac_major "${JAVA_HOME}/bin/javac") < 17 )); then
    export JAVA_HOME="$home"
  fi
  export PATH="$JAVA_HOME/bin:$PATH"
}

# Sets JAR to the component jar: $RECONMUC_JAR (relative to the caller's directory $CALLER_DIR),
# else the one `mvn package` builds. $1 names the caller in what it says.
component_jar() {
  if [[ -n "${RECONMUC_JAR:-}" ]]; then
    JAR="$RECONMUC_JAR"
    [[ "$JAR" == /* ]] || JAR="$CALLER_DIR/$JAR"
  else
    say "$1: building (mvn -B -q -DskipTests package)"
    mvn -B -q -DskipTests package
    JAR="$ROOT/component/target/reconmuc-component.jar"
  fi
  [[ -f "$JAR" ]] || die "no component jar at $JAR"
}
