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
    package init(canonical: String) { text = canonical }

    public var description: String { text }

    public static func < (a: MarkerUUID, b: MarkerUUID) -> Bool { a.text < b.text }
}
