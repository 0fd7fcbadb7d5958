import Logging
import Synchronization

/// Repeated identical log lines, written once per interval with a count: the first of a line is written at once; the
/// same line again within `interval` of it is only counted; once the interval is over, one summary line says how
/// many there were (`LINE (repeated N times in 10 s)`), and the next one starts a new interval.
///
/// Why: while the database is down every request fails alike, and one client retrying in a loop wrote 498 MB of
/// identical error lines in 15 minutes. With this, a line costs at most two log lines per interval, however often it
/// happens.
///
/// Pure (the time is given), so that it is tested without a clock; `RepeatedLogLimiter` is the locked, clocked form.
/// - Complexity: O(1) amortised per line; memory O(distinct lines met within one interval).
struct RepeatedLogFilter: Sendable {
    /// How long one line's repeats are counted before the summary.
    let interval: Duration
    private var entries: [String: Entry] = [:]
    /// When `due` next has something to do (the earliest interval end), nil when nothing is counted.
    private var nextDue: ContinuousClock.Instant?

    private struct Entry: Sendable {
        var start: ContinuousClock.Instant
        var repeats: Int
    }

    init(interval: Duration) {
        self.interval = interval
    }

    /// The lines to write now for one occurrence of `line` at `now`: the summaries of intervals that have ended,
    /// then `line` itself unless it is a repeat within its interval. Lines are the same when their `key` is (by
    /// default the line itself); a summary names the key.
    mutating func admit(_ line: String, key: String? = nil, at now: ContinuousClock.Instant) -> [String] {
        var output = due(at: now)
        let key = key ?? line
        if var entry = entries[key] {
            entry.repeats += 1
            entries[key] = entry
            return output
        }
        entries[key] = Entry(start: now, repeats: 0)
        if nextDue == nil || now + interval < nextDue! { nextDue = now + interval }
        output.append(line)
        return output
    }

    /// The summaries of the intervals that ended by `now` (lines repeated in them); those intervals are forgotten.
    /// - Complexity: O(1) when none has ended, else O(lines counted).
    mutating func due(at now: ContinuousClock.Instant) -> [String] {
        guard let next = nextDue, now >= next else { return [] }
        var output: [String] = []
        var earliest: ContinuousClock.Instant?
        for (line, entry) in entries {
            if now >= entry.start + interval {
                entries[line] = nil
                if entry.repeats > 0 { output.append(Self.summary(line, repeats: entry.repeats, interval: interval)) }
            } else if earliest == nil || entry.start + interval < earliest! {
                earliest = entry.start + interval
            }
        }
        nextDue = earliest
        return output.sorted()
    }

    /// `line` with how many more times it came in its interval.
    static func summary(_ line: String, repeats: Int, interval: Duration) -> String {
        let seconds = interval.components.seconds
        return "\(line) (repeated \(repeats) time\(repeats == 1 ? "" : "s") in \(seconds) s)"
    }
}

/// `RepeatedLogFilter` shared by a server's requests, writing to a logger.
final class RepeatedLogLimiter: Sendable {
    private let filter: Mutex<RepeatedLogFilter>

    /// The interval a server uses.
    static let defaultInterval: Duration = .seconds(10)

    init(interval: Duration = RepeatedLogLimiter.defaultInterval) {
        filter = Mutex(RepeatedLogFilter(interval: interval))
    }

    /// Logs `line` at `level` unless it is a repeat (the same `key`) within its interval (see `RepeatedLogFilter`).
    func log(_ line: String, key: String? = nil, level: Logger.Level, to logger: Logger) {
        let now = ContinuousClock.now
        for text in filter.withLock({ $0.admit(line, key: key, at: now) }) { logger.log(level: level, "\(text)") }
    }

    /// Writes the summaries of intervals that have ended (called on every request, so that a burst's count is written
    /// once the burst is over).
    func flush(level: Logger.Level, to logger: Logger) {
        let now = ContinuousClock.now
        for text in filter.withLock({ $0.due(at: now) }) { logger.log(level: level, "\(text)") }
    }
}
