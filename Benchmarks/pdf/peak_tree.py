#!/usr/bin/env python3
"""Runs a command and samples, every 10 ms, the resident memory of it and every process under it (planmark tiles
and its child planmark-pdf run at the same time: /usr/bin/time gives the larger of the two, not their sum). Prints
one line on stderr: the peak of the sum and the peak of each program, in MB (10^6 bytes) — VmRSS, a sample's
value, so a peak shorter than 10 ms can be missed; the kernel's own per-process peak (VmHWM, /usr/bin/time's %M)
is read too just before each process ends, when it still can be.

Usage: /usr/bin/python3 Benchmarks/pdf/peak_tree.py COMMAND [ARG ...]
"""
import os
import subprocess
import sys
import time


def children():
    """{pid: (ppid, name)} of every process."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        out[int(entry)] = (ppid, name)
    return out


def status(pid):
    """(VmRSS, VmHWM) in kB, or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])
    except (OSError, KeyError, ValueError):
        return None


def main():
    process = subprocess.Popen(sys.argv[1:])
    peak_sum = 0
    hwm = {}
    while process.poll() is None:
        table = children()
        tree, frontier = {process.pid}, [process.pid]
        while frontier:
            parent = frontier.pop()
            for pid, (ppid, _) in table.items():
                if ppid == parent and pid not in tree:
                    tree.add(pid)
                    frontier.append(pid)
        total = 0
        for pid in tree:
            s = status(pid)
            if s is None:
                continue
            total += s[0]
            name = table.get(pid, (0, "?"))[1]
            hwm[name] = max(hwm.get(name, 0), s[1])
        peak_sum = max(peak_sum, total)
        time.sleep(0.01)
    each = ", ".join(f"{name} {kb / 1000:.0f}" for name, kb in sorted(hwm.items(), key=lambda kv: -kv[1]))
    print(f"peak RSS of the process tree: {peak_sum / 1000:.0f} MB (sum, sampled); per program (VmHWM): {each}", file=sys.stderr)
    sys.exit(process.returncode)


if __name__ == "__main__":
    main()
