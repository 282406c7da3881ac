#!/usr/bin/env bash
# Runs every fuzz test of the project (each @FuzzTest method of every *FuzzTest class, found by
# name) in Jazzer's fuzzing mode for SECONDS each (default 60), one after another (Jazzer fuzzes
# one test per JVM), and prints per test its executions, coverage and findings. Exits non-zero if
# any test found something (a crash, a failed property, a hang) or did not run.
#
#   scripts/fuzz.sh [SECONDS] [extra Maven arguments, e.g. -o]
#
# The duration overrides the annotations' maxDuration: libFuzzer's -max_total_time, passed as
# Jazzer's JUnit parameters jazzer.internal.arg.N (jazzer-junit 0.24 has no max-duration setting
# of its own; a later -max_total_time wins). An input that runs longer than FUZZ_INPUT_TIMEOUT
# seconds (default 20) is a finding (a hang); each run is bounded by SECONDS + 600 in all.
# What a run found is saved by Jazzer under the test's src/test/resources/.../<Class>Inputs/<method>/
# (then replayed by every `mvn test`); its corpus under <module>/.cifuzz-corpus/ (git-ignored).
# Logs: target/fuzz/<Class>.<method>.log.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/common.sh
. "$ROOT/scripts/common.sh"
use_jdk17

SECONDS_EACH="${1:-60}"
[[ "$SECONDS_EACH" =~ ^[1-9][0-9]*$ ]] || die "SECONDS must be a positive whole number, not '$SECONDS_EACH'"
shift $(( $# > 0 ? 1 : 0 ))
INPUT_TIMEOUT="${FUZZ_INPUT_TIMEOUT:-20}"
LOGS="$ROOT/target/fuzz"
mkdir -p "$LOGS"

failed=0
summary=()
while IFS= read -r file; do
  module="${file%%/src/test/java/*}"
  class="$(basename "$file" .java)"
  # The @FuzzTest methods: the first method declared after each annotation.
  methods="$(awk '/@FuzzTest/ {want=1} want && match($0, /void [A-Za-z0-9_]+\(/) {print substr($0, RSTART+5, RLENGTH-6); want=0}' "$file")"
  for method in $methods; do
    log="$LOGS/$class.$method.log"
    echo "== $class#$method ($module, ${SECONDS_EACH}s)"
    JAZZER_FUZZ=1 timeout --kill-after=30 $(( SECONDS_EACH + 600 )) \
      mvn -B -pl "$module" -am test -Dtest="$class#$method" -Dsurefire.failIfNoSpecifiedTests=false \
        -Djazzer.internal.arg.0=fuzz -Djazzer.internal.arg.1=-max_total_time="$SECONDS_EACH" \
        -Djazzer.internal.arg.2=-timeout="$INPUT_TIMEOUT" "$@" >"$log" 2>&1
    rc=$?
    last="$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -n 1)"
    executions="$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")"
    coverage="$(sed -nE 's/.*cov: ([0-9]+) ft: ([0-9]+).*/cov \1, ft \2/p' <<<"$last")"
    corpus="$(sed -nE 's/.*corp: ([^ ]+).*/\1/p' <<<"$last")"
    finding="$(grep -m 1 -E '^== Java Exception|^==[0-9]+== ERROR|ALARM: working on the last Unit|Test unit written to|crash-[0-9a-f]{40}' "$log")"
    if [[ $rc -eq 0 && -z "$finding" && "$last" == *DONE* ]]; then
      result="no findings"
    else
      failed=1
      if [[ -n "$finding" ]]; then
        result="FINDING: $finding (exit $rc; see $log)"
      elif [[ $rc -eq 124 || $rc -eq 137 ]]; then
        result="FAILED: did not stop within $(( SECONDS_EACH + 600 ))s (see $log)"
      else
        result="FAILED: exit $rc without a finished run (see $log)"
      fi
    fi
    line="$class#$method: ${executions:-0} executions, ${coverage:-no coverage}, corpus ${corpus:-?}; $result"
    echo "   $line"
    summary+=("$line")
  done
done < <(find . \( -name node_modules -o -name target -o -name .git \) -prune -o -path '*/src/test/java/*' \
  -name '*FuzzTest.java' -print | sed 's|^\./||' | sort)

echo
echo "Fuzzing, ${SECONDS_EACH}s per test:"
if (( ${#summary[@]} == 0 )); then
  echo "  no fuzz tests found"
  exit 1
fi
printf '  %s\n' "${summary[@]}"
exit "$failed"
