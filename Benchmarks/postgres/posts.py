#!/usr/bin/env python3
"""Marker POSTs to one drawing of a PostgreSQL store, side by side with pgbench doing one POST's work per transaction,
and GETs of 10,000 markers as latLng GeoJSON. Run by posts.sh (which builds, starts a throwaway cluster with fsync on
and synchronous_commit on, and stops it); see README.md here.

Each round runs, in an order that turns by one each round (interleaved): pgbench (16 clients), one server (16
connections), three servers on the same database and drawing (6+5+5 connections). Each run gets a fresh database
with the drawing `bench`; each figure is the median of the rounds. The GETs run twice a round, on one server: with
the listing kept by the server (what repeated GETs of an unchanged drawing cost) and with --marker-list-cache-size 0
(what the first GET after a change costs: the markers read from PostgreSQL), in turns.
"""
import argparse, os, re, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks"))
from servers import start_servers, stop_servers  # noqa: E402
CLIENTS = 16


def sh(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


def psql(url, sql):
    return sh("psql", "-qtA", url, "-c", sql).strip()


def ms(text):
    value, unit = re.match(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]


def latency(text, percentile):
    # The line of "Latency Distribution" (at a line's start: "94.50%" in the stats above it also ends in "50%").
    found = re.search(r"^\s+" + percentile + r"%\s+(\S+)", text, re.M)
    if not found:
        raise SystemExit(f"wrk printed no {percentile}% latency:\n{text}")
    if not re.match(r"[\d.]+(us|ms|s|m)$", found.group(1)):
        raise SystemExit(f"wrk printed a {percentile}% latency of {found.group(1)}:\n{text}")
    return ms(found.group(1))


class Run:
    def __init__(self, args, work):
        self.args, self.work, self.count = args, work, 0

    def database(self, name):
        self.count += 1
        db = f"{name}_{os.getpid()}_{self.count}"
        psql(self.args.admin, f"CREATE DATABASE {db}")
        url = self.args.admin.rsplit("/", 1)[0] + "/" + db
        sh(f"{self.args.bin}/planmark", "drawing", "add", "Drawings/sample/plan.png", "--name", "bench",
           "--regions", "Drawings/sample/regions.geojson", "--store", url, cwd=ROOT)
        return url

    def check_numbers(self, url):
        count, top, distinct, history = psql(url, "SELECT count(*), coalesce(max(number), 0), count(DISTINCT number), "
                                                  "(SELECT count(*) FROM history) FROM marker").split("|")
        assert count == top == distinct == history, f"stored {count}, numbers up to {top}, {distinct} distinct, {history} history entries"
        return int(count)

    def pgbench(self):
        url = self.database("peer")
        logs = tempfile.mkdtemp(dir=self.work)
        out = sh("pgbench", "-n", "-M", "prepared", "-c", str(CLIENTS), "-j", "2", "-T", str(self.args.duration),
                 "-f", os.path.join(ROOT, "Benchmarks/postgres/post-marker.pgbench"), "-l", "--log-prefix", f"{logs}/tx", url)
        latencies = []
        for name in os.listdir(logs):
            with open(os.path.join(logs, name)) as f:
                latencies += [int(line.split()[2]) / 1000 for line in f]
        latencies.sort()
        stored = self.check_numbers(url)
        rate = float(re.search(r"tps = ([\d.]+) \(without initial connection time\)", out).group(1))
        return {"rate": rate, "p50": latencies[len(latencies) // 2], "p99": latencies[int(len(latencies) * 0.99)],
                "stored": stored, "peak": None}

    def start_servers(self, url, count, extra=()):
        return start_servers(self.args.bin, url, count, self.work, extra, tag=str(self.count))

    def stop_servers(self, servers):
        return stop_servers(servers)

    def posts(self, count):
        url = self.database(f"posts{count}")
        servers, ports = self.start_servers(url, count)
        try:
            return self.measure_posts(url, servers, ports, count)
        finally:
            for process, _ in servers:
                process.kill()

    def measure_posts(self, url, servers, ports, count):
        wrks = []
        for i, port in enumerate(ports):
            connections = CLIENTS // count + (1 if i < CLIENTS % count else 0)
            env = dict(os.environ, WRK_RUN_ID=str((os.getpid() * 7 + self.count * 3 + i) % 65536))
            wrks.append(subprocess.Popen(["wrk", "-t1", f"-c{connections}", f"-d{self.args.duration}s", "--latency",
                                          "-s", os.path.join(ROOT, "Benchmarks/server/post-marker.lua"), f"http://127.0.0.1:{port}"],
                                         stdout=subprocess.PIPE, text=True, env=env))
        rate, p50, p99, non201 = 0.0, [], [], 0
        for wrk in wrks:
            text = wrk.communicate()[0]
            rate += float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
            p50.append(latency(text, "50"))
            p99.append(latency(text, "99"))
            non201 += int(re.search(r"non-201 answers: (\d+)", text).group(1))
        peak = self.stop_servers(servers)
        assert non201 == 0, f"{non201} answers other than 201"
        return {"rate": rate, "p50": max(p50), "p99": max(p99), "stored": self.check_numbers(url), "peak": peak}

    def gets(self, kept=True):
        """GETs of one drawing's 10,000 markers; kept=False starts the server with --marker-list-cache-size 0, so
        every GET reads the markers from PostgreSQL (as the first GET after a change does)."""
        url = self.database("gets")
        import random
        random.seed(7)
        csv = os.path.join(self.work, "big.csv")
        with open(csv, "w") as f:
            f.write("x,y\n")
            for _ in range(10000):
                f.write(f"{random.uniform(210, 1790):.3f},{random.uniform(160, 640):.3f}\n")
        sh(f"{self.args.bin}/planmark", "drawing", "add", "Drawings/sample/plan.png", "--name", "big",
           "--regions", "Drawings/sample/regions.geojson", "--store", url, cwd=ROOT)
        sh(f"{self.args.bin}/planmark", "import", "big", csv, "--store", url, cwd=ROOT)
        assert psql(url, "SELECT count(*) FROM marker") == "10000"
        servers, ports = self.start_servers(url, 1, () if kept else ("--marker-list-cache-size", "0"))
        try:
            text = sh("wrk", "-t1", "-c1", f"-d{self.args.duration}s", "--latency", f"http://127.0.0.1:{ports[0]}/drawings/big/markers?zoom=3")
            peak = self.stop_servers(servers)
        finally:
            for process, _ in servers:
                process.kill()
        return {"rate": float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1)),
                "p50": latency(text, "50"), "p99": latency(text, "99"),
                "stored": 10000, "peak": peak}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--admin", required=True, help="URL of the cluster's postgres database")
    parser.add_argument("--bin", required=True, help="folder with release builds of planmark and planmark-server")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=10, help="seconds a run")
    args = parser.parse_args()
    work = tempfile.mkdtemp()
    run = Run(args, work)
    jobs = [("pgbench, one POST's work per transaction, 16 clients", run.pgbench),
            ("1 server, 16 connections", lambda: run.posts(1)),
            ("3 servers, one database and drawing, 6+5+5 connections", lambda: run.posts(3))]
    results = {name: [] for name, _ in jobs}
    gets = [("GET 10,000 markers as latLng GeoJSON, 1 server, 1 connection, listing kept", lambda: run.gets(True)),
            ("the same, every GET read from PostgreSQL (--marker-list-cache-size 0)", lambda: run.gets(False))]
    for name, _ in gets:
        results[name] = []
    for round in range(args.rounds):
        for name, job in jobs[round % len(jobs):] + jobs[:round % len(jobs)]:
            figures = job()
            results[name].append(figures)
            print(f"round {round + 1}: {name}: {figures['rate']:.0f}/s p50 {figures['p50']:.1f} ms p99 {figures['p99']:.1f} ms"
                  f" stored {figures['stored']}" + (f" peak {figures['peak']:.0f} MiB" if figures["peak"] else ""), file=sys.stderr, flush=True)
        for name, job in gets[round % 2:] + gets[:round % 2]:
            figures = job()
            results[name].append(figures)
            print(f"round {round + 1}: {name}: {figures['rate']:.0f}/s p50 {figures['p50']:.1f} ms p99 {figures['p99']:.1f} ms"
                  f" peak {figures['peak']:.0f} MiB", file=sys.stderr, flush=True)
    print(f"| job | per s, median of {args.rounds} (range) | p50 ms | p99 ms, median (range) | server peak MiB |")
    print("|---|---|---|---|---|")
    for name, runs in results.items():
        rates = [r["rate"] for r in runs]
        p99s = [r["p99"] for r in runs]
        peaks = [r["peak"] for r in runs if r["peak"]]
        print(f"| {name} | {statistics.median(rates):,.0f} ({min(rates):,.0f} to {max(rates):,.0f}) | "
              f"{statistics.median(r['p50'] for r in runs):.1f} | {statistics.median(p99s):.1f} ({min(p99s):.1f} to {max(p99s):.1f}) | "
              + (f"{max(peaks):.0f}" if peaks else "-") + " |")
    one = [r["rate"] for r in results[jobs[1][0]]]
    peer = [r["rate"] for r in results[jobs[0][0]]]
    three = [r["rate"] for r in results[jobs[2][0]]]
    print(f"\none server / pgbench: {statistics.median(a / b for a, b in zip(one, peer)):.2f}x (median of the rounds' ratios)")
    print(f"three servers / one server: {statistics.median(a / b for a, b in zip(three, one)):.2f}x")


if __name__ == "__main__":
    main()
