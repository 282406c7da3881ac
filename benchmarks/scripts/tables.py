#!/usr/bin/env python3
"""Summary tables with ratios from JMH JSON results (benchmarks/scripts/run-all.sh writes them).

Engine: per size, ns per message, deliveries per message (NOW, FLUSH), delivered items per message,
ns per delivery and per (message + item), allocation per (message + item), and the ratios
100k vs 1k and relaxed vs the standard loop. Batches: messages per second and ratios.
Usage: tables.py ENGINE.json [ENGINE-1msgps.json] [BATCH.json]
"""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def score(r, name=None):
    m = r["primaryMetric"] if name is None else r["secondaryMetrics"].get(name)
    return None if m is None else m["score"]


def err(r):
    return r["primaryMetric"]["scoreError"]


def per_msg(r, counter):
    s = score(r, counter)
    return 0.0 if not s or s != s or s == float("inf") else score(r) / s


def engine_tables(results, title):
    relaxed = [r for r in results if r["benchmark"].endswith("EngineMessageBenchmark.message")]
    standard = {int(r["params"]["occupants"]): r for r in results
                if r["benchmark"].endswith("StandardBroadcastBenchmark.message")}
    if not relaxed:
        return
    print(f"### {title}\n")
    print("| topics | N | ns/msg (±99.9%) | NOW/msg | FLUSH/msg | items/msg | ns/delivery | ns/(msg+item) |"
          " B alloc/(msg+item) | standard loop ns/msg | relaxed ÷ standard |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    by = {}
    for r in sorted(relaxed, key=lambda r: (r["params"]["topics"], int(r["params"]["occupants"]))):
        n = int(r["params"]["occupants"])
        t = r["params"]["topics"]
        by[(t, n)] = r
        units = 1 + per_msg(r, "item")
        alloc = score(r, "gc.alloc.rate.norm")
        std = standard.get(n)
        print(f"| {t} | {n:,} | {score(r):,.0f} ± {err(r):,.0f} | {per_msg(r, 'nowDelivery'):,.1f} |"
              f" {per_msg(r, 'flushDelivery'):,.1f} | {per_msg(r, 'item'):,.0f} | {score(r, 'delivery'):,.1f} |"
              f" {score(r, 'messageOrItem'):,.1f} | {'' if alloc is None else f'{alloc / units:,.1f}'} |"
              f" {'' if std is None else f'{score(std):,.0f}'} |"
              f" {'' if std is None else f'{score(r) / score(std):,.2f}×'} |")
    print()
    print("| topics | ratio 100k ÷ 1k: ns/msg | ns/delivery | ns/(msg+item) | items/msg |")
    print("|---|---:|---:|---:|---:|")
    for t in sorted({k[0] for k in by}):
        a, b = by.get((t, 1000)), by.get((t, 100000))
        if a and b:
            print(f"| {t} | {score(b) / score(a):,.1f}× | {score(b, 'delivery') / score(a, 'delivery'):,.2f}× |"
                  f" {score(b, 'messageOrItem') / score(a, 'messageOrItem'):,.2f}× |"
                  f" {per_msg(b, 'item') / per_msg(a, 'item'):,.1f}× |")
    if standard:
        print()
        print("| N | standard loop ns/msg (±99.9%) | ns/delivery |")
        print("|---:|---:|---:|")
        for n in sorted(standard):
            s = standard[n]
            print(f"| {n:,} | {score(s):,.0f} ± {err(s):,.0f} | {score(s, 'delivery'):,.2f} |")
    print()


def batch_tables(results):
    rows = {}
    for r in results:
        rows[(r["benchmark"].rsplit(".", 1)[1], int(r["params"]["batchSize"]))] = r
    sizes = sorted({k[1] for k in rows})
    methods = ["oneByOne", "oneByOneDelayed", "plainBatch", "plainBatchDom", "deflateBatch",
               "deflateBatchLevel1", "compactBatch", "compactDeflateStream", "renderForwarded",
               "decodePlain", "decodeDeflate", "decodeCompact", "decodeCompactDeflateStream"]
    print("### Batches: messages per second (±99.9% of the primary batches/s, relative)\n")
    print("| method | " + " | ".join(f"batch {k}" for k in sizes) + " | " +
          " | ".join(f"÷ oneByOne @{k}" for k in sizes) + " |")
    print("|---|" + "---:|" * (2 * len(sizes)))
    for m in methods:
        cells, ratios = [], []
        if not any((m, k) in rows for k in sizes):
            continue
        for k in sizes:
            r = rows.get((m, k))
            base = rows.get(("oneByOne", k))
            if r is None:
                cells.append("")
                ratios.append("")
                continue
            mps = score(r, "messages")
            rel = 100 * err(r) / score(r)
            cells.append(f"{mps:,.0f} (±{rel:.0f}%)")
            ratios.append(f"{mps / score(base, 'messages'):.2f}" if base else "")
        print(f"| {m} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")
    print()


def main(paths):
    for p in paths:
        data = load(p)
        if any("BatchBenchmark" in r["benchmark"] for r in data):
            batch_tables(data)
        else:
            rate = {r["params"].get("messagesPerSecond") for r in data if "messagesPerSecond" in r["params"]}
            engine_tables(data, f"Engine, {', '.join(sorted(rate)) or '?'} msg/s ({p})")


if __name__ == "__main__":
    main(sys.argv[1:])
