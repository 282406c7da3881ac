#!/usr/bin/env bash
# Counts the product's source files that run while the service processes one groupchat message
# (MessagePath.java: JDI, no agent, nothing to install). Measures the checkout it is given
# (default: this repository), e.g. benchmarks/message-path/run.sh /tmp/old-checkout to compare
# with an earlier commit. Prints the files for a room of three plain occupants, then with one of
# them relaxed.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "${1:-$HERE/../..}" && pwd)"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
cd "$REPO"
mvn -B -q -o -pl component -am test-compile dependency:build-classpath \
  -Dmdep.outputFile="$OUT/cp.txt" -Dmdep.includeScope=test >/dev/null
CP="$REPO/component/target/test-classes:$REPO/component/target/classes:$(cat "$OUT/cp.txt")"
javac -d "$OUT/classes" -cp "$CP" "$HERE/MessagePathTarget.java"
echo "# $(git -C "$REPO" log -1 --format='%h %s' | cut -c1-100)"
for mode in plain relaxed; do
  echo "## $mode"
  java "$HERE/MessagePath.java" "$REPO" "$OUT/classes:$CP" "$mode"
done
