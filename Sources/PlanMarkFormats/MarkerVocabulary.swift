#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The workflow's words, signs and colours as one JSON document (`GET /vocabulary`), made from `MarkerStatus`,
/// `MarkerPriority` and `Overdue`: the review page reads it instead of keeping a copy.
///
/// ```json
/// {"statuses":[{"name":"open","title":"Open","glyph":"○","colour":"#0072B2","ink":"#FFFFFF","active":true,
///   "next":[{"to":"in-progress","action":"Start work","needsReason":false,"advances":true}, ...]}, ...],
///  "priorities":["low","normal","high","critical"],"overdue":{"glyph":"!","colour":"#E11D48"},"formerly":{"resolved":"closed"}}
/// ```
public struct MarkerVocabulary: Codable, Hashable, Sendable {
    /// A status and where it may go.
    public struct Status: Codable, Hashable, Sendable {
        public var name: String
        public var title: String
        public var glyph: String
        /// `#RRGGBB`.
        public var colour: String
        /// The colour of text and glyphs on `colour` (`#FFFFFF` on dark colours, `#111827` on light ones).
        public var ink: String
        /// Whether a marker in it still needs work (an overdue one is flagged).
        public var active: Bool
        public var next: [Change]
    }

    /// A change the workflow allows.
    public struct Change: Codable, Hashable, Sendable {
        public var to: String
        /// The words of the button that makes it.
        public var action: String
        /// A rejection: the change needs a reason.
        public var needsReason: Bool
        /// Work on the item (the trade's), rather than an inspection (the manager's): `TeamAction.statusChange`.
        public var advances: Bool
    }

    /// An overdue marker's sign and colour.
    public struct Flag: Codable, Hashable, Sendable {
        public var glyph: String
        public var colour: String
    }

    public var statuses: [Status]
    public var priorities: [String]
    public var overdue: Flag
    /// Words older stores and clients use for a status: `resolved` is `closed`.
    public var formerly: [String: String]

    /// The vocabulary of this build.
    public static let current = MarkerVocabulary(
        statuses: MarkerStatus.allCases.map { status in
            Status(name: status.rawValue, title: status.title, glyph: status.glyph, colour: hex(status.colour), ink: ink(on: status.colour),
                   active: status.isActive,
                   next: status.next.map {
                       Change(to: $0.rawValue, action: $0.action(from: status), needsReason: status.needsReason(toChangeTo: $0),
                              advances: status.advances(to: $0))
                   })
        },
        priorities: MarkerPriority.allCases.map(\.rawValue),
        overdue: Flag(glyph: Overdue.glyph, colour: hex(Overdue.colour)),
        formerly: [MarkerStatus.closedFormerly: MarkerStatus.closed.rawValue])

    /// `#RRGGBB`.
    public static func hex(_ rgb: UInt32) -> String {
        let digits = String(rgb & 0xFF_FFFF, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// Dark ink on a light colour, white on a dark one: WCAG's relative luminance above 0.35 (about where the contrast
    /// of both inks is equal) takes dark ink.
    /// - Complexity: O(1).
    public static func ink(on rgb: UInt32) -> String {
        func linear(_ channel: UInt32) -> Double {
            let c = Double(channel & 0xFF) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * linear(rgb >> 16) + 0.7152 * linear(rgb >> 8) + 0.0722 * linear(rgb)
        return luminance > 0.35 ? "#111827" : "#FFFFFF"
    }
}
