#!/usr/bin/env python3
"""The capacity table from benchmarks/capacity/run.sh's results: one row per server, room size
and scenario; latencies in seconds (p99 of every delivery, of deliveries meant at once, of
direct replies at their parent's author), deliveries lost and late, CPU seconds.
Usage: table.py OUT_DIR [more result folders ...]"""
import json
import pathlib
import sys

ROWS = []
for arg in sys.argv[1:]:
    for summary in sorted(pathlib.Path(arg).glob("**/summary.json")):
        d = json.loads(summary.read_text())
        if "parameters" not in d:
            continue  # a scenario's own file; the run's summary lists every scenario
        p = d["parameters"]
        for s in d["scenarios"]:
            lat = s["latency_ms"]
            c = s["completeness"]
            proc = s["processes"]
            now = lat.get("immediate_deliveries", lat["all_deliveries"])
            comp = proc.get("component", {})
            link = comp.get("link_bytes_to_server")
            ROWS.append((p.get("server"), s["bots"], s["scenario"],
                         (lat["all_deliveries"].get("p99") or 0) / 1000, (now.get("p99") or 0) / 1000,
                         (lat["direct_replies_at_parent_author"].get("p99") or 0) / 1000,
                         c["lost"], c.get("late", "—"), proc["xmpp_server"]["cpu_seconds"],
                         comp.get("cpu_seconds", 0), str(summary.parent),
                         "—" if link is None else f"{link / 1e6:.1f}",
                         "—" if comp.get("multicast_stanzas") is None else f"{comp['multicast_stanzas']:,}"))

print("| run | bots | scenario | all p99 s | at-once p99 s | direct reply p99 s | lost | late"
      " | server CPU s | component CPU s | link MB | multicast stanzas | p99 < 5 s |")
print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
order = {"standard": 0, "off": 1}
for r in sorted(ROWS, key=lambda r: (r[0], r[1], r[10], order.get(r[2], 2))):
    ok = "yes" if r[4] < 5 and r[6] == 0 else "no"
    late = f"{r[7]:,}" if isinstance(r[7], int) else r[7]
    run = pathlib.Path(r[10]).name
    print(f"| {run} | {r[1]:,} | {r[2]} | {r[3]:.1f} | {r[4]:.1f} | {r[5]:.1f} | {r[6]:,} | {late}"
          f" | {r[8]:.0f} | {r[9]:.1f} | {r[11]} | {r[12]} | {ok} |")
