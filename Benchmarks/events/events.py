#!/usr/bin/env python3
"""Event-stream viewers under load (issue 26): how long a change takes from its writer's answer to every viewer's
screen. Run by run.sh (which builds, starts a throwaway PostgreSQL cluster with PostgreSQL's durable defaults, and
stops it); see README.md here.

PostgreSQL: SERVERS `planmark-server` processes on one database; VIEWERS event streams of the drawing spread over
them (raw HTTP/1.1, one connection each, like an EventSource); first the servers' CPU with every viewer connected and
nothing changing (IDLE seconds, read from /proc), then RATE marker POSTs a second for DURATION seconds spread over
the servers. For each POST and each viewer: the time from the POST's 201 (read by this client) to the viewer reading
the event. Every viewer must receive every POST's event exactly once, in cursor order, or the run fails.

SQLite: one server and VIEWERS viewers on one store file, and the CLI (`planmark mark`, another process) adding a
marker CLI_RATE times a second: the time from the CLI's exit to each viewer reading the event.

One process (asyncio) is every viewer and writer: it shares the machine's cores with the servers and PostgreSQL, so
its own delay is in the figures (they are an upper bound of the servers').
"""
import argparse, asyncio, json, os, re, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks"))
from servers import peak_mib, start_servers  # noqa: E402
# Points inside rooms and the allowed area of the sample sheet (Drawings/sample/expected-validate.jsonl: valid).
POINTS = [(450, 400), (900.5, 300.25), (1300, 500), (1400, 400)]
TICKS = os.sysconf("SC_CLK_TCK")


def sh(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


def percentile(values, p):
    """The nearest-rank percentile p (0-100) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))]


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime


class Viewer:
    """One event stream: the events it read, as (cursor, kind, number, time read)."""

    def __init__(self, port, path):
        self.port, self.path, self.events, self.ready = port, path, [], asyncio.Event()
        self.ended = None

    async def run(self):
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        if status != 200 or b"chunked" not in head.lower():
            raise SystemExit(f"a viewer got {head.decode(errors='replace')!r}")
        buffer = b""
        try:
            while True:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    break
                data = await reader.readexactly(size + 2)
                now = time.monotonic()
                buffer += data[:-2]
                *whole, buffer = buffer.split(b"\n\n")
                for block in whole:
                    if block.startswith(b"retry:"):
                        self.ready.set()
                        continue
                    found = re.match(rb'id: (\d+)\nevent: (\S+)\ndata: \{"cursor":\d+,"drawing":"[^"]*","kind":"[^"]*","number":(\d+|null)', block)
                    if found:
                        number = None if found.group(3) == b"null" else int(found.group(3))
                        self.events.append((int(found.group(1)), found.group(2).decode(), number, now))
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            self.ended = repr(error)
        else:
            self.ended = "the server ended the stream"
        finally:
            writer.close()


class Client:
    """A keep-alive HTTP/1.1 connection for POSTs."""

    def __init__(self, port):
        self.port = port

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def post(self, path, body):
        data = json.dumps(body).encode()
        self.writer.write(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nContent-Type: application/json\r\n"
                          f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))
        answer = await self.reader.readexactly(length)
        return int(head.split(b" ", 2)[1]), time.monotonic(), json.loads(answer)


async def connect_viewers(ports, count):
    viewers = [Viewer(ports[i % len(ports)], "/drawings/bench/events") for i in range(count)]
    tasks = [asyncio.create_task(v.run()) for v in viewers]
    await asyncio.wait_for(asyncio.gather(*(v.ready.wait() for v in viewers)), 60)
    return viewers, tasks


async def idle_cpu(processes, seconds):
    """The servers' CPU together over `seconds`, as a percentage of one core."""
    await asyncio.sleep(2)  # let the connections settle
    before = sum(cpu_ticks(p.pid) for p in processes)
    start = time.monotonic()
    await asyncio.sleep(seconds)
    used = (sum(cpu_ticks(p.pid) for p in processes) - before) / TICKS
    return 100 * used / (time.monotonic() - start)


def latencies(viewers, written):
    """The delays (ms) from each write's acknowledgement to each viewer reading it; fails when a viewer missed an
    event, read one twice or out of cursor order."""
    delays = []
    for index, viewer in enumerate(viewers):
        cursors = [e[0] for e in viewer.events]
        assert cursors == sorted(cursors) and len(set(cursors)) == len(cursors), f"viewer {index}: cursors out of order or twice"
        seen = {e[2]: e[3] for e in viewer.events if e[1] == "upsert"}
        missing = [n for n in written if n not in seen]
        assert not missing, f"viewer {index} (port {viewer.port}) missed {len(missing)} of {len(written)} events ({viewer.ended})"
        assert len(seen) == len([e for e in viewer.events if e[1] == "upsert"]), f"viewer {index}: an event twice"
        delays += [max(0.0, (seen[n] - t) * 1000) for n, t in written.items()]
    return delays


def summary(delays):
    return {"p50": statistics.median(delays), "p95": percentile(delays, 95), "p99": percentile(delays, 99), "max": max(delays)}


async def postgres_case(args, work):
    db = f"events_{os.getpid()}"
    sh("psql", "-qtA", args.admin, "-c", f"CREATE DATABASE {db}")
    url = args.admin.rsplit("/", 1)[0] + "/" + db
    sh(f"{args.bin}/planmark", "drawing", "add", "Drawings/sample/plan.png", "--name", "bench",
       "--regions", "Drawings/sample/regions.geojson", "--store", url, cwd=ROOT)
    servers, ports = start_servers(args.bin, url, args.servers, work, tag="pg")
    processes = [p for p, _ in servers]
    try:
        viewers, tasks = await connect_viewers(ports, args.viewers)
        idle = await idle_cpu(processes, args.idle)
        clients = [Client(ports[i % len(ports)]) for i in range(args.servers * 4)]
        for c in clients:
            await c.open()
        queues = [asyncio.Queue() for _ in ports]
        written, failures = {}, []

        async def worker(client, queue):
            while True:
                index = await queue.get()
                x, y = POINTS[index % len(POINTS)]
                status, acknowledged, answer = await client.post("/drawings/bench/markers", {"x": x, "y": y})
                if status == 201:
                    written[answer["number"]] = acknowledged
                else:
                    failures.append(status)
                queue.task_done()

        workers = [asyncio.create_task(worker(c, queues[i % len(ports)])) for i, c in enumerate(clients)]
        total = args.rate * args.duration
        start = time.monotonic()
        for index in range(total):
            delay = start + index / args.rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            queues[index % len(ports)].put_nowait(index)
        for q in queues:
            await q.join()
        sent_in = time.monotonic() - start
        # Every viewer has read the last write's event (or the wait ends and the check below says who did not).
        last = max(written)
        try:
            await asyncio.wait_for(wait_for(lambda: all(any(e[2] == last for e in v.events) for v in viewers)), 30)
        except asyncio.TimeoutError:
            pass
        for w in workers + tasks:
            w.cancel()
        assert not failures, f"{len(failures)} POSTs were not 201: {failures[:5]}"
        delays = latencies(viewers, written)
        peaks = [peak_mib(p.pid) for p in processes]
        return {"case": f"PostgreSQL, {args.servers} servers", "viewers": args.viewers, "writes": len(written),
                "rate": len(written) / sent_in, "idle_cpu": idle, "peak": max(peaks), **summary(delays)}
    finally:
        for p in processes:
            p.kill()
            p.wait()


async def wait_for(condition):
    while not condition():
        await asyncio.sleep(0.05)


async def sqlite_case(args, work):
    store = os.path.join(work, "store.sqlite")
    sh(f"{args.bin}/planmark", "drawing", "add", "Drawings/sample/plan.png", "--name", "bench",
       "--regions", "Drawings/sample/regions.geojson", "--store", store, cwd=ROOT)
    servers, ports = start_servers(args.bin, store, 1, work, tag="sqlite")
    processes = [p for p, _ in servers]
    try:
        viewers, tasks = await connect_viewers(ports, args.viewers)
        idle = await idle_cpu(processes, args.idle)
        written = {}
        total = args.cli_rate * args.cli_duration
        start = time.monotonic()

        async def mark(index):
            x, y = POINTS[index % len(POINTS)]
            process = await asyncio.create_subprocess_exec(f"{args.bin}/planmark", "mark", "bench", str(x), str(y), "--store", store,
                                                           stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await process.communicate()
            done = time.monotonic()
            assert process.returncode == 0, err.decode()
            written[int(out.decode().strip())] = done

        marks = []
        for index in range(total):
            delay = start + index / args.cli_rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            marks.append(asyncio.create_task(mark(index)))
        await asyncio.gather(*marks)
        last = max(written)
        try:
            await asyncio.wait_for(wait_for(lambda: all(any(e[2] == last for e in v.events) for v in viewers)), 30)
        except asyncio.TimeoutError:
            pass
        for t in tasks:
            t.cancel()
        delays = latencies(viewers, written)
        return {"case": "SQLite, 1 server, CLI writing", "viewers": args.viewers, "writes": len(written),
                "rate": len(written) / (time.monotonic() - start), "idle_cpu": idle, "peak": peak_mib(processes[0].pid), **summary(delays)}
    finally:
        for p in processes:
            p.kill()
            p.wait()


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--admin", required=True, help="postgres://... of a cluster's maintenance database")
    parser.add_argument("--bin", required=True, help="a folder with release builds of planmark and planmark-server")
    parser.add_argument("--servers", type=int, default=3)
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--rate", type=int, default=20, help="marker POSTs a second")
    parser.add_argument("--duration", type=int, default=60, help="seconds of POSTs")
    parser.add_argument("--idle", type=int, default=30, help="seconds of CPU measured with viewers and no changes")
    parser.add_argument("--cli-rate", type=int, default=2, help="CLI marks a second (SQLite)")
    parser.add_argument("--cli-duration", type=int, default=20, help="seconds of CLI marks (SQLite)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        rows = [await postgres_case(args, work), await sqlite_case(args, work)]
    print("| case | viewers | writes (per s) | p50 ms | p95 ms | p99 ms | max ms | idle CPU (% of a core) | peak RSS a server |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['case']} | {r['viewers']} | {r['writes']} ({r['rate']:.1f}) | {r['p50']:.1f} | {r['p95']:.1f} | {r['p99']:.1f} "
              f"| {r['max']:.1f} | {r['idle_cpu']:.2f} | {r['peak']:.0f} MiB |")


if __name__ == "__main__":
    asyncio.run(main())
