#!/usr/bin/env python3
"""The failover runs' summary.json files as one Markdown table (issue 26)."""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
print("| run | sent | acknowledged | unacked bounced | unacked dropped | lost | duplicated | out of order"
      " | rejoins | adoptions logged | rooms lost logged | moved rooms | s without service p50 / max"
      " | first echo's message sent after fault p50 / max s | its wait for the echo p50 / max s"
      " | slowest ack per room p50 / max s | load before → after |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|---|")
for summary in sorted(root.glob("*/summary.json")):
    d = json.loads(summary.read_text())
    a = d["acknowledged_messages"]
    logged = d.get("logged", {})
    gaps = [v["seconds_without_service"] for v in d.get("failover", {}).values()
            if v.get("seconds_without_service") is not None]
    gaps.sort()
    down = f"{gaps[len(gaps) // 2]:.1f} / {gaps[-1]:.1f}" if gaps else "—"

    def spread(key):
        values = sorted(v[key] for v in d.get("failover", {}).values() if v.get(key) is not None)
        return f"{values[len(values) // 2]:.2f} / {values[-1]:.2f}" if values else "—"
    g = d.get("slowest_acknowledgement_after_fault_seconds") or d.get("longest_acknowledgement_gap_after_fault_seconds") or {}
    ack_gap = f"{g['median']:.1f} / {g['max']:.1f}" if g.get("median") is not None else "—"
    load = f"{d['load_before'].split()[0]} → {d['load_after'].split()[0]}"
    print(f"| {summary.parent.name} | {a['sent']:,} | {a['acknowledged']:,} | {a['unacknowledged_bounced']:,}"
          f" | {a['unacknowledged_dropped']:,} | {a['lost']:,} | {a['duplicated']:,} | {a['out_of_order']:,}"
          f" | {a['rejoins']:,} | {logged.get('adoptions', '—')} | {logged.get('rooms_lost_to_another_instance', '—')}"
          f" | {len(d.get('failover', {}))} | {down} | {spread('first_acknowledged_sent_after_seconds')}"
          f" | {spread('first_acknowledged_waited_seconds')} | {ack_gap} | {load} |")
