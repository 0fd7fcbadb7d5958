#!/usr/bin/env python3
"""The store benchmark: importing 1,000,000 markers (every row validated) into a new drawing, next to the
sqlite3 shell's `.import` of the same CSV into a plain table (the floor for raw SQLite inserts); then
`planmark markers NAME --format jsonl` of the ~1,000,000 stored markers.

Usage: python3 Benchmarks/store/run.py [--runs N] [--bin PATH] [--data DIR]
Needs: a release build (`swift build -c release --product planmark`), the sqlite3 shell (Debian: sqlite3).
The floor and the import run interleaved (floor, import, floor, import, ...), each into a fresh file; each figure is
the median of N runs (wall clock; CPU = user + system of the child; peak RSS of the child).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def timed(command, setup=None, runs=3, ok=(0,), stdout=subprocess.DEVNULL):
    walls, cpus, peaks = [], [], []
    for _ in range(runs):
        if setup:
            setup()
        wall, cpu, peak = measured(command, ok=ok, stdout=stdout)
        walls.append(wall)
        cpus.append(cpu)
        peaks.append(peak)
    return statistics.median(walls), statistics.median(cpus), statistics.median(peaks)


def measured(command, ok=(0,), stdout=subprocess.DEVNULL):
    """Runs `command` once: (wall s, cpu s, peak RSS MiB), from wait4's accounting of the child."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=stdout, stderr=subprocess.PIPE)
    stderr = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in ok:
        sys.exit(f"{' '.join(command)} failed ({child.returncode}): {stderr.decode()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "planmark"))
    parser.add_argument("--data", default=os.path.join(ROOT, ".build", "store-bench"))
    args = parser.parse_args()
    if not os.path.exists(args.bin):
        sys.exit(f"{args.bin}: build it first: swift build -c release --product planmark")
    sqlite3 = shutil.which("sqlite3")
    if not sqlite3:
        sys.exit("the sqlite3 shell is needed (Debian: apt-get install sqlite3)")
    data = args.data
    markers = os.path.join(data, "markers.csv")
    if not os.path.exists(markers):
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), data], check=True)
    rows = sum(1 for _ in open(markers)) - 1
    raw, store = os.path.join(data, "raw.sqlite"), os.path.join(data, "store.sqlite")

    def remove(*paths):
        for path in paths:
            for suffix in ("", "-wal", "-shm", "-journal"):
                if os.path.exists(path + suffix):
                    os.remove(path + suffix)

    def fresh_store():
        remove(store)
        subprocess.run([args.bin, "drawing", "add", os.path.join(data, "plan.png"), "--name", "Plan",
                        "--regions", os.path.join(data, "regions.geojson"), "--store", store,
                        # The plan is 20000 x 15000 px, beyond the default limit of 200,000,000 pixels.
                        "--max-pixels", "300000000"],
                       check=True, stdout=subprocess.DEVNULL)

    # Interleaved: sqlite3 .import, planmark import, sqlite3 .import, ... each into a fresh file (the store with
    # the drawing made anew before each import, outside the timing).
    floors, imports = [], []
    for _ in range(args.runs):
        remove(raw)
        floors.append(measured([sqlite3, raw, ".import --csv " + markers + " raw"]))
        fresh_store()
        # --skip-invalid: the file has 0.5% invalid rows (exit 1 reports them); every row is validated.
        imports.append(measured([args.bin, "import", "Plan", markers, "--skip-invalid", "--store", store], ok=(0, 1)))
    floor = tuple(statistics.median(run[k] for run in floors) for k in range(3))
    imported = tuple(statistics.median(run[k] for run in imports) for k in range(3))
    ratio = statistics.median(i[0] / f[0] for i, f in zip(imports, floors))
    stored = int(subprocess.run([args.bin, "drawing", "show", "Plan", "--format", "json", "--store", store],
                                capture_output=True, text=True).stdout.split('"markers":')[1].split(",")[0])
    export = timed([args.bin, "markers", "Plan", "--format", "jsonl", "--store", store], runs=args.runs)

    print(f"rows in markers.csv: {rows}; stored after validation: {stored}; median of {args.runs} runs")
    print(f"{'job':58} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9}")
    print(f"{'sqlite3 .import --csv into a plain table (the floor)':58} {floor[0]:8.2f} {floor[1]:8.2f} {floor[2]:9.0f}")
    print(f"{'planmark import --skip-invalid (validate + store)':58} {imported[0]:8.2f} {imported[1]:8.2f} {imported[2]:9.0f}")
    print(f"{'planmark markers --format jsonl (export)':58} {export[0]:8.2f} {export[1]:8.2f} {export[2]:9.0f}")
    print(f"import / floor: {ratio:.2f}x wall (median of the pairs' ratios), {imported[1] / floor[1]:.2f}x cpu")


if __name__ == "__main__":
    main()
