#!/usr/bin/env bash
# Runs every fuzz test of the project (each @FuzzTest method of every *FuzzTest class, found by
# name) in Jazzer's fuzzing mode for SECONDS each (default 60), and prints per test its executions,
# coverage and findings. Exits non-zero if any test found something (a crash, a failed property, a
# hang) or did not run. Jazzer fuzzes one test per JVM: one Maven run compiles the modules and
# writes their test classpaths (target/test.classpath), then each test runs in a JVM of its own
# (scripts/FuzzTestLauncher), FUZZ_JOBS (default: the number of cores, at most 2) at a time —
# each fuzzer is one busy thread, so on an otherwise idle machine each still gets a core of its own.
#
#   scripts/fuzz.sh [SECONDS] [extra Maven arguments, e.g. -o]
#
# The duration overrides the annotations' maxDuration: libFuzzer's -max_total_time, passed as
# Jazzer's JUnit parameters jazzer.internal.arg.N (jazzer-junit 0.24 has no max-duration setting
# of its own; a later -max_total_time wins). An input that runs longer than FUZZ_INPUT_TIMEOUT
# seconds (default 20) is a finding (a hang); each run is bounded by SECONDS + 600 in all.
# What a run found is saved by Jazzer under the test's src/test/resources/.../<Class>Inputs/<method>/
# (then replayed by every `mvn test`); its corpus under <module>/.cifuzz-corpus/ (git-ignored).
# Logs: target/fuzz/<Class>.<method>.log. FUZZ_PREBUILT=1 skips the Maven run (the Maven build's own
# call, fuzzing/pom.xml, after the modules were built).
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

# The fuzz tests: "module class method" per line.
targets=()
while IFS= read -r file; do
  module="${file%%/src/test/java/*}"
  class="$(sed 's|.*/src/test/java/||; s|\.java$||; s|/|.|g' <<<"$file")"
  # The @FuzzTest methods: the first method declared after each annotation.
  for method in $(awk '/@FuzzTest/ {want=1} want && match($0, /void [A-Za-z0-9_]+\(/) {print substr($0, RSTART+5, RLENGTH-6); want=0}' "$file"); do
    targets+=("$module $class $method")
  done
done < <(find . \( -name node_modules -o -name target -o -name .git \) -prune -o -path '*/src/test/java/*' \
  -name '*FuzzTest.java' -print | sed 's|^\./||' | sort)
if (( ${#targets[@]} == 0 )); then
  echo "Fuzzing, ${SECONDS_EACH}s per test:"
  echo "  no fuzz tests found"
  exit 1
fi
modules="$(printf '%s\n' "${targets[@]}" | cut -d' ' -f1 | sort -u | paste -sd, -)"
if [[ "${FUZZ_PREBUILT:-}" == 1 ]]; then
  # Called by the Maven build (fuzzing/pom.xml), after those modules were compiled and tested.
  for module in ${modules//,/ }; do
    [[ -f "$module/target/test.classpath" ]] || die "FUZZ_PREBUILT=1 but $module/target/test.classpath is missing"
  done
else
  echo "== compiling $modules and writing their test classpaths"
  mvn -B -q -pl "$modules" -am process-test-classes "$@" >"$LOGS/build.log" 2>&1 \
    || { cat "$LOGS/build.log"; die "the build for fuzzing failed (see $LOGS/build.log)"; }
fi
# The launcher, compiled once against a module's test classpath (every such one has the JUnit launcher).
first_module="${modules%%,*}"
rm -rf "$LOGS/launcher"
javac -d "$LOGS/launcher" -cp "$(cat "$first_module/target/test.classpath")" "$ROOT/scripts/FuzzTestLauncher.java" \
  || die "could not compile scripts/FuzzTestLauncher.java"

# fuzz_one MODULE CLASS METHOD: fuzzes in a JVM of its own, in the module's directory (where Jazzer
# keeps the corpus and looks for the inputs), then writes the test's summary line to its .result.
fuzz_one() {
  local module="$1" class="$2" method="$3" short="${2##*.}"
  local log="$LOGS/$short.$method.log"
  (cd "$module" && JAZZER_FUZZ=1 timeout --kill-after=30 $(( SECONDS_EACH + 600 )) \
    java "${JVM_FLAGS[@]}" -cp "$LOGS/launcher:target/test-classes:target/classes:$(cat target/test.classpath)" \
      -Djazzer.internal.arg.0=fuzz -Djazzer.internal.arg.1=-max_total_time="$SECONDS_EACH" \
      -Djazzer.internal.arg.2=-timeout="$INPUT_TIMEOUT" \
      FuzzTestLauncher "$class#$method") >"$log" 2>&1
  local rc=$? result
  local last="$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -n 1)"
  local executions="$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")"
  local coverage="$(sed -nE 's/.*cov: ([0-9]+) ft: ([0-9]+).*/cov \1, ft \2/p' <<<"$last")"
  local corpus="$(sed -nE 's/.*corp: ([^ ]+).*/\1/p' <<<"$last")"
  local finding="$(grep -m 1 -E '^== Java Exception|^==[0-9]+== ERROR|ALARM: working on the last Unit|Test unit written to|crash-[0-9a-f]{40}' "$log")"
  if [[ $rc -eq 0 && -z "$finding" && "$last" == *DONE* ]]; then
    result="no findings"
  elif [[ -n "$finding" ]]; then
    result="FINDING: $finding (exit $rc; see $log)"
  elif [[ $rc -eq 124 || $rc -eq 137 ]]; then
    result="FAILED: did not stop within $(( SECONDS_EACH + 600 ))s (see $log)"
  else
    result="FAILED: exit $rc without a finished run (see $log)"
  fi
  echo "$short#$method: ${executions:-0} executions, ${coverage:-no coverage}, corpus ${corpus:-?}; $result" >"$log.result"
  echo "   $(cat "$log.result")"
}

# A short fuzz spends more on C2's compiles than it gains from them: C1 only, and a serial GC, halve its
# CPU and run more inputs in 5 s (11.5 against 22 CPU-seconds, 7,577 against 5,662 executions, for
# RoomConfigFormFuzzTest on 2 cores); a long one gets the JVM's defaults.
JVM_FLAGS=(-XX:+UseSerialGC)
(( SECONDS_EACH <= 30 )) && JVM_FLAGS+=(-XX:TieredStopAtLevel=1)
JOBS="${FUZZ_JOBS:-$(( $(nproc) < 2 ? 1 : 2 ))}"
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || die "FUZZ_JOBS must be a positive whole number, not '$JOBS'"
rm -f "$LOGS"/*.result
for target in "${targets[@]}"; do
  while (( $(jobs -rp | wc -l) >= JOBS )); do
    wait -n
  done
  read -r module class method <<<"$target"
  echo "== ${class##*.}#$method ($module, ${SECONDS_EACH}s)"
  fuzz_one "$module" "$class" "$method" &
done
wait

echo
echo "Fuzzing, ${SECONDS_EACH}s per test:"
failed=0
for target in "${targets[@]}"; do
  read -r module class method <<<"$target"
  result_file="$LOGS/${class##*.}.$method.log.result"
  if [[ -f "$result_file" ]]; then
    line="$(cat "$result_file")"
  else
    line="${class##*.}#$method: FAILED: no result"
  fi
  [[ "$line" == *"; no findings" ]] || failed=1
  echo "  $line"
done
exit "$failed"
