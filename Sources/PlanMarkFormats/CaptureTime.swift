/// When a client captured a punch item: RFC 3339 `date-time` text with its offset
/// (`2026-11-20T09:41:07.250+01:00`, or `Z`), kept exactly as the client sent it (the server's own
/// times are separate).
public struct CaptureTime: Hashable, Sendable, CustomStringConvertible {
    /// The text as sent.
    public let text: String

    /// Checks `text` against RFC 3339 section 5.6 `date-time`: `full-date "T" full-time`, seconds 00-60,
    /// an optional fraction, then `Z` or `+hh:mm`/`-hh:mm`. Nil for anything else (no offset, a space for `T`,
    /// a day that does not exist, an offset beyond 23:59).
    /// - Complexity: O(length).
    public init?(text: String) {
        let b = Array(text.utf8)
        guard b.count >= 20, b.count <= 64, DueDate(text: String(decoding: b[0..<10], as: UTF8.self)) != nil,
              b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":") else { return nil }
        func two(_ at: Int) -> Int? {
            guard at + 1 < b.count else { return nil }
            let high = Int(b[at]) - 48, low = Int(b[at + 1]) - 48
            guard (0...9).contains(high), (0...9).contains(low) else { return nil }
            return high * 10 + low
        }
        guard let hour = two(11), hour <= 23, let minute = two(14), minute <= 59, let second = two(17), second <= 60 else {
            return nil
        }
        var index = 19
        if index < b.count, b[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[index]) { index += 1 }
            guard index > start else { return nil }
        }
        guard index < b.count else { return nil }
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == b.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == b.count, b[index + 3] == UInt8(ascii: ":"),
                  let offsetHour = two(index + 1), offsetHour <= 23, let offsetMinute = two(index + 4), offsetMinute <= 59 else { return nil }
        default:
            return nil
        }
        self.text = text
    }

    public var description: String { text }
}
