# One line of a benchmark's medians table: the median wall time, CPU time (user + system) and peak memory (KiB, shown
# in MiB) of a job's runs, one run a line of its .times file ("WALL USER SYS PEAK_KiB"), then what the job wrote.
# Variables: job (its name), tiles (how many tiles it wrote), size (their MB). Used by Benchmarks/tiles/run.sh and
# Benchmarks/pdf/run.sh.
{ wall[NR] = $1; cpu[NR] = $2 + $3; peak[NR] = $4 }
# The median of a[1..n] (sorted in place: n is a handful of runs).
function median(a, n,   i, j, t) {
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
END { printf "%-10s %8.2f %8.2f %10.0f %7d %10s\n", job, median(wall, NR), median(cpu, NR), median(peak, NR) / 1024, tiles, size }
