#!/usr/bin/env python3
"""Prosody's samples per variant while the messages are replayed and drained (issue 28).

Usage: report.py PERF_DATA CONSOLE_TXT. The windows come from the console's stamped lines (the
same CLOCK_MONOTONIC as perf's samples): from "replaying" to "stopping" of each variant.
"""
import re
import subprocess
import sys

data, console = sys.argv[1], sys.argv[2]
windows = {}
for line in open(console):
    m = re.match(r"([\d.]+) (\S+) \[replay\] \S+: (replaying|stopping)", line)
    if m:
        windows.setdefault(m.group(2), {})[m.group(3)] = float(m.group(1))


def perf(*args):
    return subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "--percent-limit", "0.5",
                           "-g", "none", *args], capture_output=True, text=True).stdout


def rows(text):
    for line in text.splitlines():
        m = re.match(r"\s+([\d.]+)%\s+(\d+)\s+(.*)", line)
        if m:
            yield float(m.group(1)), int(m.group(2)), m.group(3).strip()


HZ = 99
print("# Where Prosody's CPU goes (perf, 99 Hz, samples while the messages are replayed and drained)\n")
print("Prosody's samples by library, from the start of the replay to the end of the drain; CPU s ="
      " samples / 99 Hz. The Lua interpreter's own functions have no symbols in Debian's binary, so"
      " Lua time is one line.\n")
names = [n for n, w in windows.items() if "replaying" in w and "stopping" in w]
table = {}
for name in names:
    w = windows[name]
    span = f"{w['replaying']:.3f},{w['stopping']:.3f}"
    comms = list(rows(perf("--time", span, "--sort", "comm", "-n")))
    prosody = [c for _, _, c in comms if "lua" in c or "prosody" in c]
    dsos = {}
    if prosody:
        for _, n, what in rows(perf("--time", span, "--comm", prosody[0], "--sort", "dso", "-n")):
            dsos[what] = n
    table[name] = (w["stopping"] - w["replaying"], dsos)
libraries = sorted({d for _, dsos in table.values() for d in dsos}, key=lambda d: -sum(t[1].get(d, 0) for t in table.values()))
print("| variant | window s | Prosody CPU s | " + " | ".join(f"{d} CPU s (share)" for d in libraries) + " |")
print("|---|---:|---:|" + "---:|" * len(libraries))
for name, (span, dsos) in table.items():
    total = sum(dsos.values())
    cells = [f"{dsos.get(d, 0) / HZ:.1f} ({100 * dsos.get(d, 0) / total:.0f} %)" if total else "—" for d in libraries]
    print(f"| {name} | {span:.0f} | {total / HZ:.1f} | " + " | ".join(cells) + " |")
