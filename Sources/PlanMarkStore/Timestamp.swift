#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point in time, to the millisecond: stored as milliseconds since 1970-01-01T00:00:00Z (an SQLite
/// integer of 6 bytes, a PostgreSQL `bigint`), shown as ISO 8601 in UTC, `2025-03-01T09:30:00.123Z`.
///
/// Why an integer: a million imported markers carry two times each; as text they were a third of the
/// row, and of the bytes an import writes.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible, Encodable {
    /// Milliseconds since the Unix epoch (UTC).
    public var milliseconds: Int64

    /// The time `milliseconds` after the Unix epoch.
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The time `secondsSinceEpoch` (UTC) plus `milliseconds`.
    public init(secondsSinceEpoch: Int, milliseconds: Int = 0) {
        self.milliseconds = Int64(secondsSinceEpoch) * 1000 + Int64(milliseconds)
    }

    /// The current time.
    public static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(secondsSinceEpoch: Int(spec.tv_sec), milliseconds: Int(spec.tv_nsec) / 1_000_000)
    }

    /// ISO 8601 in UTC with milliseconds.
    public var text: String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let millis = Int32(milliseconds - seconds * 1000)
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(millis, 3))Z"
    }

    /// Earlier times first.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// The ISO 8601 text.
    public var description: String { text }

    /// Its `text`, as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
