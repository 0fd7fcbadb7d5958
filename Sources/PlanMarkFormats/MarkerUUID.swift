/// A marker's identifier made by the client (or the store): RFC 4122 / RFC 9562 text,
/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in hexadecimal, kept in lower case.
public struct MarkerUUID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The canonical text: 36 characters, lower-case hexadecimal and four hyphens.
    public let text: String

    /// Parses the 36-character hyphenated form (either case); nil for anything else (braces, `urn:uuid:`, no hyphens).
    /// Canonical text (what the store keeps) is taken as it is, without a copy.
    /// - Complexity: O(1).
    public init?(text: String) {
        var upper = false
        var count = 0
        for byte in text.utf8 {
            defer { count += 1 }
            if count == 8 || count == 13 || count == 18 || count == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): break
            case UInt8(ascii: "A")...UInt8(ascii: "F"): upper = true
            default: return nil
            }
            if count >= 36 { return nil }
        }
        guard count == 36 else { return nil }
        self.text = upper ? text.lowercased() : text
    }

    /// Text known to be canonical already.
    init(canonical: String) { text = canonical }

    public var description: String { text }

    public static func < (a: MarkerUUID, b: MarkerUUID) -> Bool { a.text < b.text }
}

/// Makes version-7 UUIDs (RFC 9562 section 5.7): 48 bits of Unix milliseconds, then a 12-bit counter
/// (`rand_a`, method 1 of section 6.2) and 62 random bits. UUIDs from one generator increase strictly,
/// so a store's uuid index grows at its end instead of at random places (an import of a million markers
/// pays for appends, not for a million random B-tree inserts).
public struct MarkerUUIDGenerator {
    private var lastMilliseconds: Int64 = -1
    private var counter: UInt16 = 0

    /// A generator.
    public init() {}

    /// The next UUID for a moment given as milliseconds since 1970; strictly greater than the previous one.
    /// - Complexity: O(1).
    public mutating func next(milliseconds now: Int64) -> MarkerUUID {
        var random = SystemRandomNumberGenerator()
        return next(milliseconds: now, using: &random)
    }

    /// The next UUID, its random bits from `random` (use a cryptographically secure source).
    /// - Complexity: O(1).
    public mutating func next<R: RandomNumberGenerator>(milliseconds now: Int64, using random: inout R) -> MarkerUUID {
        var text = [UInt8](repeating: 0, count: 36)
        text.withUnsafeMutableBufferPointer { writeNext(milliseconds: now, into: $0, using: &random) }
        return MarkerUUID(canonical: String(decoding: text, as: UTF8.self))
    }

    /// Writes the next UUID's 36 characters of text into `text` (at least 36 bytes), with no heap allocation,
    /// its random bits from `random`.
    /// - Complexity: O(1).
    public mutating func writeNext<R: RandomNumberGenerator>(milliseconds now: Int64, into text: UnsafeMutableBufferPointer<UInt8>,
                                                             using random: inout R) {
        var milliseconds = max(now, 0)
        if milliseconds <= lastMilliseconds {
            milliseconds = lastMilliseconds
            if counter == 0x0FFF {
                milliseconds += 1
                counter = UInt16.random(in: 0...0x07FF, using: &random)
            } else {
                counter += 1
            }
        } else {
            counter = UInt16.random(in: 0...0x07FF, using: &random)
        }
        lastMilliseconds = milliseconds
        let tail = random.next() as UInt64
        // 16 bytes: 48-bit time, version 7 and the 12-bit counter, variant 10 and 62 random bits.
        let high = UInt64(milliseconds) << 16 | 0x7000 | UInt64(counter)
        let low = (tail >> 2) | 0x8000_0000_0000_0000
        let hex: StaticString = "0123456789abcdef"
        var out = 0
        func put(_ word: UInt64) {
            for nibble in (0..<16).reversed() {
                if out == 8 || out == 13 || out == 18 || out == 23 {
                    text[out] = UInt8(ascii: "-")
                    out += 1
                }
                text[out] = hex.utf8Start[Int((word >> UInt64(4 * nibble)) & 15)]
                out += 1
            }
        }
        put(high)
        put(low)
    }
}
