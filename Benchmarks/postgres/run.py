#!/usr/bin/env python3
"""The PostgreSQL store benchmark: `planmark import` of 1,000,000 markers (every row validated, numbered, stored with
COPY in one transaction) into a new drawing of a PostgreSQL store, next to `psql \\copy` of the same CSV into a plain
table with the file's columns (the peer: PostgreSQL's own bulk load, nothing validated); then the export of the
~995,000 stored markers, `planmark markers NAME --format csv` next to `COPY (SELECT ...) TO STDOUT` of the same CSV
(export-peer.sql). The import runs twice per round: into a store with PostGIS's geometry columns, and into one without.

Two more `psql \\copy` jobs per round say where the import's time goes, on the same data:
- the floor of the guarantees: the stored markers' `(drawingId, number, x, y)` into a table whose primary key is
  `(drawingId, number)`, the least a store that keeps numbers unique (and finds a marker by its number) must write;
- the server's part alone: the import's own rows (every column, as COPY text) into `marker` of a fresh store, with
  and without PostGIS: what the import costs the database, without PlanMark's reading, validation and numbering.

Usage: python3 Benchmarks/postgres/run.py --admin postgres://USER@HOST:PORT/postgres [--runs N] [--bin PATH] [--data DIR]
Needs: a release build, psql, a cluster the admin URL reaches (run.sh starts a throwaway one).
The peer and the import run interleaved (peer, import, peer, import, ...), each into a fresh database; each figure is
the median of N runs (wall clock; CPU = user + system of the client process, not the server's; peak RSS of the client).
"""
import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def measured(command, ok=(0,), stdout=subprocess.DEVNULL):
    """Runs `command` once: (wall s, cpu s, peak RSS MiB), from wait4's accounting of the child."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=stdout, stderr=subprocess.PIPE)
    stderr = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in ok:
        sys.exit(f"{' '.join(command)} failed ({code}): {stderr.decode()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def median3(runs):
    return tuple(statistics.median(run[k] for run in runs) for k in range(3))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--admin", required=True, help="an admin URL of the cluster (postgres://USER@HOST:PORT/postgres)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "planmark"))
    parser.add_argument("--data", default=os.path.join(ROOT, ".build", "store-bench"))
    args = parser.parse_args()
    if not os.path.exists(args.bin):
        sys.exit(f"{args.bin}: build it first: swift build -c release --product planmark")
    psql = shutil.which("psql")
    if not psql:
        sys.exit("psql is needed (Debian: apt-get install postgresql-client)")
    data = args.data
    markers = os.path.join(data, "markers.csv")
    if not os.path.exists(markers):
        subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks", "store", "generate.py"), data], check=True)
    rows = sum(1 for _ in open(markers)) - 1
    admin = args.admin
    base = admin.rsplit("/", 1)[0]

    def sql(url, statement):
        subprocess.run([psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", statement], check=True, stdout=subprocess.DEVNULL)

    def fresh_database(name):
        sql(admin, f"DROP DATABASE IF EXISTS {name}")
        sql(admin, f"CREATE DATABASE {name}")
        return f"{base}/{name}"

    def fresh_store(postgis=True, name=None):
        url = fresh_database(name or ("bench_store" if postgis else "bench_store_plain"))
        subprocess.run([args.bin, "drawing", "add", os.path.join(data, "plan.png"), "--name", "Plan",
                        "--regions", os.path.join(data, "regions.geojson"), "--store", url, "--max-pixels", "300000000"],
                       check=True, stdout=subprocess.DEVNULL)
        if not postgis:
            # As on a server without PostGIS: no geometry columns, no GiST indexes.
            sql(url, "ALTER TABLE marker DROP COLUMN IF EXISTS geom")
            sql(url, "ALTER TABLE region DROP COLUMN IF EXISTS geom")
        return url

    def fresh_peer():
        url = fresh_database("bench_peer")
        sql(url, "CREATE TABLE raw (x double precision, y double precision)")
        return url

    def copy_in(url, table, path, options=""):
        return [psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", f"\\copy {table} FROM '{path}'{options}"]

    # A first import, not timed (the warm-up), gives the stored rows the two floors load.
    store = fresh_store()
    measured([args.bin, "import", "Plan", markers, "--skip-invalid", "--store", store], ok=(0, 1))
    columns = "drawingid, number, x, y, rooms, createdat, uuid, ref, note, author, status, category, priority, assignee, due, capturedat"
    stored_rows, numbered_rows = os.path.join(data, "stored-rows.tsv"), os.path.join(data, "numbered-rows.tsv")
    sql(store, f"\\copy (SELECT {columns} FROM marker ORDER BY number) TO '{stored_rows}'")
    sql(store, f"\\copy (SELECT drawingid, number, x, y FROM marker ORDER BY number) TO '{numbered_rows}'")

    # Interleaved: psql \copy, planmark import, planmark import without PostGIS, the two floors, ... each into a fresh
    # database (made outside the timing).
    peers, imports, plain_imports, numbered, server_parts, plain_server_parts = [], [], [], [], [], []
    for _ in range(args.runs):
        peer = fresh_peer()
        peers.append(measured(copy_in(peer, "raw", markers, " WITH (FORMAT csv, HEADER true)")))
        store = fresh_store()
        # --skip-invalid: the file has 0.5% invalid rows (exit 1 reports them); every row is validated.
        imports.append(measured([args.bin, "import", "Plan", markers, "--skip-invalid", "--store", store], ok=(0, 1)))
        plain = fresh_store(postgis=False)
        plain_imports.append(measured([args.bin, "import", "Plan", markers, "--skip-invalid", "--store", plain], ok=(0, 1)))
        floor = fresh_database("bench_floor")
        sql(floor, "CREATE TABLE numbered (drawingId bigint NOT NULL, number bigint NOT NULL, x double precision NOT NULL, "
                   "y double precision NOT NULL, PRIMARY KEY (drawingId, number))")
        numbered.append(measured(copy_in(floor, "numbered", numbered_rows)))
        target = fresh_store(name="bench_copy")
        server_parts.append(measured(copy_in(target, f"marker ({columns})", stored_rows)))
        target = fresh_store(postgis=False, name="bench_copy_plain")
        plain_server_parts.append(measured(copy_in(target, f"marker ({columns})", stored_rows)))
    peer_figures, import_figures = median3(peers), median3(imports)
    ratio = statistics.median(i[0] / p[0] for i, p in zip(imports, peers))
    plain_ratio = statistics.median(i[0] / p[0] for i, p in zip(plain_imports, peers))
    stored = int(subprocess.run([psql, "-X", "-A", "-t", store, "-c", "SELECT count(*) FROM marker"],
                                capture_output=True, text=True, check=True).stdout.strip())

    # Export, interleaved: psql \copy (SELECT every column) TO STDOUT, planmark markers --format csv.
    # The peer writes the same CSV, byte for byte (export-peer.sql; checked below).
    copy_out = [psql, "-X", "-q", store, "-v", "drawing=Plan", "-f", os.path.join(HERE, "export-peer.sql")]
    def digest(command):
        # Streamed, so that this process stays small: a child's peak memory (wait4) counts the parent's pages it
        # starts with.
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        hashed, size = hashlib.sha256(), 0
        for block in iter(lambda: child.stdout.read(1 << 20), b""):
            hashed.update(block)
            size += len(block)
        child.wait()
        return hashed.hexdigest(), size

    ours, theirs = digest([args.bin, "markers", "Plan", "--format", "csv", "--store", store]), digest(copy_out)
    same = f"byte-identical ({ours[1]} bytes)" if ours == theirs else f"DIFFERENT ({ours[1]} and {theirs[1]} bytes)"
    peer_exports, exports = [], []
    export_error = None
    for _ in range(args.runs):
        peer_exports.append(measured(copy_out))
        probe = subprocess.run([args.bin, "markers", "Plan", "--format", "csv", "--store", store], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
        if probe.returncode != 0:
            export_error = probe.stderr.decode().strip()
            break
        exports.append(measured([args.bin, "markers", "Plan", "--format", "csv", "--store", store]))

    print(f"rows in markers.csv: {rows}; stored after validation: {stored}; median of {args.runs} runs")
    def row(job, figures):
        print(f"{job:62} {figures[0]:8.2f} {figures[1]:8.2f} {figures[2]:9.0f}")

    print(f"{'job':62} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9}")
    row("psql \\copy into a plain table (x, y) (the peer)", peer_figures)
    row("planmark import --skip-invalid (validate + number + COPY)", import_figures)
    print(f"import / peer: {ratio:.2f}x wall (median of the pairs' ratios)")
    row("the same import, no PostGIS columns (geom, GiST)", median3(plain_imports))
    print(f"import without PostGIS / peer: {plain_ratio:.2f}x wall")
    def versus_peer(runs):
        return statistics.median(r[0] / p[0] for r, p in zip(runs, peers))
    row("psql \\copy (drawingId, number, x, y) into a primary key", median3(numbered))
    print(f"  / peer: {versus_peer(numbered):.2f}x wall (the floor of a store whose numbers are unique)")
    row("psql \\copy of the import's rows into marker, PostGIS", median3(server_parts))
    print(f"  / peer: {versus_peer(server_parts):.2f}x; import / this: "
          f"{statistics.median(i[0] / c[0] for i, c in zip(imports, server_parts)):.2f}x")
    row("psql \\copy of the import's rows into marker, no PostGIS", median3(plain_server_parts))
    print(f"  / peer: {versus_peer(plain_server_parts):.2f}x; import without PostGIS / this: "
          f"{statistics.median(i[0] / c[0] for i, c in zip(plain_imports, plain_server_parts)):.2f}x")
    print(f"export: planmark's CSV and the peer's are {same}")
    row("psql: COPY (SELECT ... the same CSV) TO STDOUT (export peer)", median3(peer_exports))
    if exports:
        row("planmark markers --format csv (export)", median3(exports))
        print(f"export / peer: {statistics.median(a[0] / b[0] for a, b in zip(exports, peer_exports)):.2f}x wall")
    else:
        print(f"planmark markers --format csv: not measured: {export_error}")


if __name__ == "__main__":
    main()
