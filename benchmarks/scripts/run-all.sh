#!/usr/bin/env bash
# Runs every benchmark and report once, bounded (~20 minutes on 2 cores), writing the raw
# output under benchmarks/results/<date>-*.{txt,json} and printing the summary tables.
# Usage: benchmarks/scripts/run-all.sh [date-prefix]    (from anywhere; builds nothing:
#   first `mvn -B -q -DskipTests install -pl component -am` and `mvn -B -q -f benchmarks/pom.xml -DskipTests package`)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
jar=target/benchmarks.jar
prefix="results/${1:-$(date +%F)}"
mkdir -p results
# Modest, bounded JMH settings for a shared, noisy 2-core machine: 1 fork, 3 warm-up and 5
# measured iterations. Compare ratios inside one run, not absolute numbers across runs.
common=(-f 1 -wi 3 -w 1 -i 5)
# The engine gets JMH's default 10-s warm-up iterations: with 1 s its first measured iteration still
# carries compilation (2026-11-23: 45 vs 12.5 µs), which made the error bars larger than the scores.
engine=(-f 1 -wi 3 -w 10 -i 5)

java -version 2>&1 | tee "$prefix-machine.txt"
{ echo "nproc: $(nproc)"; grep -m1 'model name' /proc/cpuinfo || true; free -m | head -2; } | tee -a "$prefix-machine.txt"

# 1. Engine cost per message (relaxed, 6 msg/s, filtered and unfiltered topics) and the standard baseline.
java -jar "$jar" 'EngineMessageBenchmark|StandardBroadcastBenchmark' "${engine[@]}" -r 2 -prof gc \
    -rf json -rff "$prefix-engine.json" 2>&1 | tee "$prefix-engine.txt"
# 1b. Same at 1 msg/s, where the 60 s time bound (not only volume) flushes.
java -jar "$jar" 'EngineMessageBenchmark' "${engine[@]}" -r 2 -prof gc -p messagesPerSecond=1 -p topics=FILTERED \
    -rf json -rff "$prefix-engine-1msgps.json" 2>&1 | tee "$prefix-engine-1msgps.txt"
# 3. Batch rendering and deflate throughput.
java -jar "$jar" 'BatchBenchmark' "${common[@]}" -r 1 \
    -rf json -rff "$prefix-batch.json" 2>&1 | tee "$prefix-batch.txt"
# 3a. The live path: one message's fan-out to every compact-deflate-live session, streams alike or apart.
java -jar "$jar" 'LiveStreamBenchmark' "${common[@]}" -w 2 -r 2 \
    -rf json -rff "$prefix-live-stream.json" 2>&1 | tee "$prefix-live-stream.txt"
# 3b. Bytes per message (deterministic).
java -cp "$jar" org.reconmuc.benchmarks.BatchSizeReport 2>&1 | tee "$prefix-batch-sizes.txt"
# 2. Retained state per occupant (JOL).
java -Xmx8g -Djdk.attach.allowAttachSelf=true -cp "$jar" org.reconmuc.benchmarks.FootprintReport 2>&1 \
    | tee "$prefix-footprint.txt"

python3 scripts/tables.py "$prefix-engine.json" "$prefix-engine-1msgps.json" "$prefix-batch.json" | tee "$prefix-tables.md"
