/// One history entry as the store keeps it: its columns' values as stored (the states as their JSON text), which is
/// what the chain hashes, so that `history verify` checks the bytes in the table and nothing decoded from them.
///
/// Encodable with its property names as keys: a back end's bulk path may send rows as JSON (PostgreSQL's
/// `jsonb_to_recordset`).
public struct HistoryRow: Hashable, Sendable, Encodable {
    public var drawingID: Int64
    public var number: Int
    public var lastNumber: Int?
    public var action: String
    /// Milliseconds since 1970.
    public var at: Int64
    public var author: String?
    public var oldValue: String?
    public var newValue: String?
    /// `HistoryChain.hash(previous:self)`, hexadecimal (64 characters): set by `HistoryChain.link`.
    public var hash: String

    /// A row with no hash yet.
    public init(drawingID: Int64, number: Int, lastNumber: Int?, action: String, at: Int64, author: String?, oldValue: String?,
                newValue: String?, hash: String = "") {
        self.drawingID = drawingID
        self.number = number
        self.lastNumber = lastNumber
        self.action = action
        self.at = at
        self.author = author
        self.oldValue = oldValue
        self.newValue = newValue
        self.hash = hash
    }

    /// The row that stores `entry` (the states as `MarkerState.jsonText`).
    public init(_ entry: HistoryEntry) {
        self.init(drawingID: entry.drawingID, number: entry.number, lastNumber: entry.lastNumber, action: entry.action.rawValue,
                  at: entry.at.milliseconds, author: entry.author, oldValue: entry.old?.jsonText, newValue: entry.new?.jsonText)
    }
}

/// The history's hash chain: every entry's `hash` is SHA-256 of the previous entry's hash (32 bytes; 32 zero bytes for
/// the first entry) followed by the entry's canonical bytes. Entries are chained in the order of their ids, across the
/// whole store, and the store keeps the last hash as the chain's head (`historyHead`), so that editing, deleting,
/// inserting or reordering any entry, the last one too, breaks the chain where it happened.
///
/// The canonical bytes of an entry are its eight columns in this order: drawingId, number, lastNumber, action, at,
/// author, oldValue, newValue. A NULL column is the one byte 0x00; any other is the byte 0x01, the length of its UTF-8
/// text as 8 bytes big-endian, and that text; integers are written in decimal ASCII (`-` for a negative one). The
/// entry's id is not part of it: the chain's order is what ties an entry to its place. (docs/history.md)
public enum HistoryChain {
    /// The hash before the first entry: 64 zeros.
    public static let genesis = String(repeating: "0", count: 64)

    /// The canonical bytes of `row` (without its hash).
    /// - Complexity: O(size of the row's text).
    public static func canonicalBytes(_ row: HistoryRow) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + (row.oldValue?.utf8.count ?? 0) + (row.newValue?.utf8.count ?? 0))
        func field(_ text: String?) {
            guard let text else { bytes.append(0); return }
            bytes.append(1)
            let count = UInt64(text.utf8.count)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: count >> UInt64(shift))) }
            bytes.append(contentsOf: text.utf8)
        }
        field(String(row.drawingID))
        field(String(row.number))
        field(row.lastNumber.map { String($0) })
        field(row.action)
        field(String(row.at))
        field(row.author)
        field(row.oldValue)
        field(row.newValue)
        return bytes
    }

    /// The hash of `row` after the entry whose hash is `previous` (hexadecimal), hexadecimal.
    /// - Complexity: O(size of the row's text).
    public static func hash(previous: String, _ row: HistoryRow) -> String {
        var hasher = SHA256()
        hasher.update(bytes(ofHex: previous) ?? [UInt8](repeating: 0, count: 32))
        hasher.update(canonicalBytes(row))
        return hasher.hexDigest()
    }

    /// `rows` with their hashes set, chained after `head`; the new head is the last one's hash.
    /// - Complexity: O(total size of the rows' text).
    public static func link(_ rows: [HistoryRow], after head: String) -> [HistoryRow] {
        var previous = head
        return rows.map { row in
            var row = row
            row.hash = hash(previous: previous, row)
            previous = row.hash
            return row
        }
    }

    /// The 32 bytes of a 64-digit hexadecimal hash; nil for anything else (a head that is not a hash breaks the chain at
    /// the next entry, as it should).
    static func bytes(ofHex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}

/// What `history verify` found.
public enum HistoryVerification: Hashable, Sendable {
    /// Every entry's hash follows from the one before, and the head is the last one's.
    case verified(entries: Int, head: String)
    /// The first entry whose stored hash is not the one its bytes and its predecessor give (or the head, when only the
    /// head disagrees: an entry after it was deleted or the head was changed).
    case broken(HistoryBreak)
}

/// Where the chain first fails to verify.
public struct HistoryBreak: Hashable, Sendable {
    /// The entry's id; nil when the head is what disagrees.
    public var entryID: Int64?
    /// The entry's drawing: its name, or `#id` when the drawing was removed.
    public var drawing: String?
    /// The entry's marker number.
    public var number: Int?
    /// Entries that verified before it.
    public var verifiedBefore: Int
    /// What is wrong, in words.
    public var problem: String

    public init(entryID: Int64?, drawing: String?, number: Int?, verifiedBefore: Int, problem: String) {
        self.entryID = entryID
        self.drawing = drawing
        self.number = number
        self.verifiedBefore = verifiedBefore
        self.problem = problem
    }
}
