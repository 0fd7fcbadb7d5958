"""planmark-server processes for the benchmarks' Python drivers (postgres/posts.py, events/events.py): started on
port 0 with their stderr in a log, their ports read from the "listening on" line, their peak memory (VmHWM) read
before they are stopped."""
import os, re, subprocess, time


def start_servers(bin_dir, store, count, log_dir, extra=(), tag=""):
    """`count` servers of `bin_dir` on `store`; returns ([(process, log)], [port])."""
    servers = []
    for i in range(count):
        log = open(os.path.join(log_dir, f"server{tag}_{i}.log"), "w+")
        process = subprocess.Popen([f"{bin_dir}/planmark-server", "--store", store, "--port", "0", *extra],
                                   stdout=subprocess.DEVNULL, stderr=log)
        servers.append((process, log))
    ports = []
    for process, log in servers:
        for _ in range(600):
            log.seek(0)
            found = re.search(r"listening on http://[^:]*:(\d+)", log.read())
            if found:
                ports.append(int(found.group(1)))
                break
            time.sleep(0.05)
        else:
            raise SystemExit("a server did not start")
    return servers, ports


def peak_mib(pid):
    """The process's peak resident memory so far, in MiB."""
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmHWM:\s+(\d+) kB", f.read()).group(1)) / 1024


def stop_servers(servers):
    """Stops the servers; returns the highest peak memory among them, in MiB."""
    peaks = [peak_mib(process.pid) for process, _ in servers]
    for process, _ in servers:
        process.terminate()
        process.wait()
    return max(peaks)
