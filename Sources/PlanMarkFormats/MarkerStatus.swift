/// Where a punch item is in its workflow: the one definition of the statuses, their words, their signs and colours,
/// and the changes between them. The store enforces it, the renderer and the report draw it, both front doors print
/// it, the OpenAPI document and the CLI's help are made from it, and the review page reads it (`GET /vocabulary`,
/// `MarkerVocabulary`). A new status is a case here (and a migration for the stores' checks).
///
/// | from | to |
/// |---|---|
/// | open | in-progress, ready, closed, void |
/// | in-progress | open, ready, closed, void |
/// | ready | closed, open (rejected: a reason is required), void |
/// | closed | open |
/// | void | open |
public enum MarkerStatus: String, Hashable, Sendable, CaseIterable, Codable {
    /// Needs attention.
    case open
    /// Someone is working on it.
    case inProgress = "in-progress"
    /// The work is done and ready for inspection.
    case ready
    /// Inspected and accepted (stores written before punch items called this `resolved`).
    case closed
    /// Not an item after all (a duplicate, or raised by mistake).
    case void

    /// The word PlanMark used for `closed` before the workflow; still read wherever a status is.
    public static let closedFormerly = "resolved"

    /// The status `text` names (`open`, `in-progress`, `ready`, `closed`, `void`); `resolved`, the name
    /// PlanMark used before the workflow, is `closed`.
    public init?(text: String) {
        if text == Self.closedFormerly { self = .closed; return }
        self.init(rawValue: text)
    }

    /// Every status's name, in workflow order, joined by `separator` (for help texts and messages).
    public static func names(separator: String = ", ") -> String {
        allCases.map(\.rawValue).joined(separator: separator)
    }

    /// The statuses this one may change to.
    public var next: [MarkerStatus] {
        switch self {
        case .open: return [.inProgress, .ready, .closed, .void]
        case .inProgress: return [.open, .ready, .closed, .void]
        case .ready: return [.closed, .open, .void]
        case .closed, .void: return [.open]
        }
    }

    /// Whether the workflow allows changing from this status to `status`.
    public func allows(_ status: MarkerStatus) -> Bool { next.contains(status) }

    /// Whether changing to `status` rejects the work (ready to open) and so needs a reason.
    public func needsReason(toChangeTo status: MarkerStatus) -> Bool { self == .ready && status == .open }

    /// Whether changing to `status` is work on the item (open -> in-progress -> ready), which the trade doing it may
    /// do; anything else (verify ready -> closed, reject, void, reopen) is an inspection.
    public func advances(to status: MarkerStatus) -> Bool {
        switch (self, status) {
        case (.open, .inProgress), (.open, .ready), (.inProgress, .ready): return true
        default: return false
        }
    }

    /// Whether a marker in this status still needs work (anything but closed and void).
    public var isActive: Bool { self != .closed && self != .void }

    /// Words for people (`In progress`, `Ready for inspection`).
    public var title: String {
        switch self {
        case .open: return "Open"
        case .inProgress: return "In progress"
        case .ready: return "Ready for inspection"
        case .closed: return "Closed"
        case .void: return "Void"
        }
    }

    /// The words of the action that changes a marker from `from` to this status (`Start work`, `Reject (reopen)`).
    public func action(from: MarkerStatus) -> String {
        switch self {
        case .open: return from == .ready ? "Reject (reopen)" : "Reopen"
        case .inProgress: return "Start work"
        case .ready: return "Ready for inspection"
        case .closed: return "Resolve"
        case .void: return "Void"
        }
    }

    /// Its sign besides its colour (colour is never the only one), so that two statuses differ in black and white too:
    /// empty, half, then full as the work gets done; a tick: closed; a cross: void.
    public var glyph: String {
        switch self {
        case .open: return "○"
        case .inProgress: return "◐"
        case .ready: return "●"
        case .closed: return "✓"
        case .void: return "✕"
        }
    }

    /// Its colour, 0xRRGGBB: hues from the Okabe–Ito and Tol colour-blind-safe palettes that differ in lightness too
    /// (open blue, in-progress reddish purple, ready bluish green, closed dark grey, void light grey).
    public var colour: UInt32 {
        switch self {
        case .open: return 0x0072B2
        case .inProgress: return 0xAA4499
        case .ready: return 0x009E73
        case .closed: return 0x4B5563
        case .void: return 0xA8AEB8
        }
    }
}

/// How urgent a punch item is.
public enum MarkerPriority: String, Hashable, Sendable, CaseIterable, Codable, Comparable {
    case low, normal, high, critical

    public static func < (a: MarkerPriority, b: MarkerPriority) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// Every priority's name, lowest first, joined by `separator`.
    public static func names(separator: String = ", ") -> String {
        allCases.map(\.rawValue).joined(separator: separator)
    }
}

/// An overdue marker (due before today and still active): its sign and colour besides its status's.
public enum Overdue {
    public static let glyph = "!"
    /// Crimson, 0xRRGGBB.
    public static let colour: UInt32 = 0xE11D48
}
