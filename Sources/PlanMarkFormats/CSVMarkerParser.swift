import PlanMarkGeometry

/// The columns of a markers CSV file, from its header line.
public struct CSVColumns: Hashable, Sendable {
    /// Column index of each known field; nil when absent.
    public var id: Int?
    /// Column of `x` or `lng`.
    public var first: Int
    /// Column of `y` or `lat`.
    public var second: Int
    /// True for `lat,lng` files.
    public var isLatLng: Bool
    /// Column of `note`.
    public var note: Int?
    /// Column of `author`.
    public var author: Int?
    /// Number of columns in the header.
    public var count: Int

    /// The column names this reader knows.
    public static let known = ["id", "x", "y", "lat", "lng", "note", "author"]

    /// Reads a header line; `line` and `source` name it in errors.
    public init(header fields: [String], source: String, line: Int) throws(FormatError) {
        var index: [String: Int] = [:]
        for (position, raw) in fields.enumerated() {
            let name = raw.trimmingCharacters(in: " \t").lowercased()
            guard Self.known.contains(name) else {
                if name.isEmpty {
                    throw FormatError(.malformed, source: source, line: line, message: "empty column name in the header")
                }
                throw FormatError(.malformed, source: source, line: line,
                                  message: "unknown column \"\(raw)\" (expected a header naming x,y or lat,lng, and optionally id, note, author)")
            }
            guard index[name] == nil else {
                throw FormatError(.malformed, source: source, line: line, message: "column \"\(name)\" appears twice")
            }
            index[name] = position
        }
        let hasPixels = index["x"] != nil || index["y"] != nil
        let hasLatLng = index["lat"] != nil || index["lng"] != nil
        if hasPixels && hasLatLng {
            throw FormatError(.malformed, source: source, line: line, message: "the header names both x,y and lat,lng; use one pair")
        }
        if let x = index["x"], let y = index["y"] {
            first = x; second = y; isLatLng = false
        } else if let lng = index["lng"], let lat = index["lat"] {
            first = lng; second = lat; isLatLng = true
        } else {
            throw FormatError(.malformed, source: source, line: line, message: "the header must name x,y or lat,lng")
        }
        id = index["id"]
        note = index["note"]
        author = index["author"]
        count = fields.count
    }
}

extension String {
    /// The string without leading and trailing characters from `set`.
    func trimmingCharacters(in set: String) -> String {
        let scalars = Set(set.unicodeScalars)
        var view = Substring(self)
        while let first = view.unicodeScalars.first, scalars.contains(first) { view = view.dropFirst() }
        while let last = view.unicodeScalars.last, scalars.contains(last) { view = view.dropLast() }
        return String(view)
    }
}

/// Parses data lines of a markers CSV file. Stateless, so blocks can be parsed in parallel.
///
/// Fields are separated by commas and may be quoted with `"` (a doubled `""` inside is a quote); a
/// line break inside quotes is refused. Blank lines are skipped and do not count as rows.
///
/// Coordinates: spaces around them are ignored; a row whose coordinates are missing, are not decimal
/// numbers (`DecimalParser`: no `0x1p3`, `inf`, `nan`) or are not finite gets a nil position (reason
/// `invalid-coordinate`); the batch goes on.
///
/// Text fields (`id`, `note`, `author`) are kept exactly as written: an unquoted field byte for byte,
/// spaces included (never trimmed); a quoted one as the text between its quotes, with `""` as `"`
/// (spaces outside the quotes are ignored). An empty id means the 1-based data row number; an empty
/// note or author means none. Text that cannot be kept is refused with the line and field named
/// (`FILE:LINE: invalid UTF-8 in field "note"`): invalid UTF-8, a NUL anywhere, and in an id any other
/// control character but tab (C0 and DEL).
public struct CSVMarkerParser: Sendable {
    /// The header's columns.
    public let columns: CSVColumns
    /// Converts latLng rows; required when the header names lat,lng.
    public let conversion: LatLngConversion?
    /// The file name for errors.
    public let source: String

    /// Creates a parser for one file.
    public init(columns: CSVColumns, conversion: LatLngConversion?, source: String) {
        self.columns = columns
        self.conversion = conversion
        self.source = source
    }

    /// Counts the lines (newline-terminated or final) and non-blank lines of `chunk`.
    /// - Complexity: O(n) for n bytes.
    public static func lineCounts(_ chunk: UnsafeBufferPointer<UInt8>) -> (lines: Int, rows: Int) {
        var lines = 0, rows = 0
        var blank = true
        var any = false
        for byte in chunk {
            if byte == 10 {
                lines += 1
                if !blank { rows += 1 }
                blank = true
                any = false
            } else {
                any = true
                if byte != 32 && byte != 9 && byte != 13 { blank = false }
            }
        }
        if any {
            lines += 1
            if !blank { rows += 1 }
        }
        return (lines, rows)
    }

    /// Parses every line of `chunk`, appending a row for each non-blank one.
    /// - Parameters:
    ///   - firstLine: the file line number of the chunk's first line.
    ///   - firstRow: the data row number of the chunk's first non-blank line (default ids).
    /// - Complexity: O(n) for n bytes.
    public func parse(_ chunk: UnsafeBufferPointer<UInt8>, firstLine: Int, firstRow: Int, into rows: inout [MarkerRow]) throws(FormatError) {
        var line = firstLine
        var row = firstRow
        var start = 0
        let count = chunk.count
        var fields: [Range<Int>] = []
        fields.reserveCapacity(columns.count + 1)
        var unquoteBuffer: [UInt8] = []
        while start < count {
            var end = start
            while end < count && chunk[end] != 10 { end += 1 }
            var lineEnd = end
            if lineEnd > start && chunk[lineEnd - 1] == 13 { lineEnd -= 1 }
            if !Self.isBlank(chunk, start, lineEnd) {
                try splitFields(chunk, start, lineEnd, line: line, into: &fields)
                rows.append(try makeRow(chunk, fields, line: line, row: row, unquoteBuffer: &unquoteBuffer))
                row += 1
            }
            line += 1
            start = end + 1
        }
    }

    @inline(__always)
    static func isBlank(_ chunk: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end {
            let b = chunk[i]
            if b != 32 && b != 9 && b != 13 { return false }
            i += 1
        }
        return true
    }

    /// Splits one line into field ranges (quotes included; `field(_:)` strips them).
    func splitFields(_ chunk: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, line: Int, into fields: inout [Range<Int>]) throws(FormatError) {
        fields.removeAll(keepingCapacity: true)
        var fieldStart = start
        var i = start
        var inQuotes = false
        while i < end {
            let b = chunk[i]
            if b == 34 {
                inQuotes.toggle()
            } else if b == 44 && !inQuotes {
                fields.append(fieldStart..<i)
                fieldStart = i + 1
            }
            i += 1
        }
        if inQuotes {
            throw FormatError(.malformed, source: source, line: line, message: "unterminated quoted field (a line break inside quotes is not supported)")
        }
        fields.append(fieldStart..<end)
        if fields.count > columns.count {
            throw FormatError(.malformed, source: source, line: line,
                              message: "\(fields.count) fields, but the header names \(columns.count)")
        }
    }

    /// The field's bytes without surrounding spaces and quotes.
    @inline(__always)
    static func trimmed(_ chunk: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper && (chunk[lower] == 32 || chunk[lower] == 9) { lower += 1 }
        while upper > lower && (chunk[upper - 1] == 32 || chunk[upper - 1] == 9) { upper -= 1 }
        return lower..<upper
    }

    /// The text of a field as kept (see the type's documentation), checked; `name` and `line` name it
    /// in errors.
    /// - Complexity: O(n) for the field's n bytes.
    func text(
        _ chunk: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, name: String, line: Int, buffer: inout [UInt8]
    ) throws(FormatError) -> String {
        let r = Self.trimmed(chunk, range)
        let isID = name == "id"
        if r.count >= 2 && chunk[r.lowerBound] == 34 && chunk[r.upperBound - 1] == 34 {
            buffer.removeAll(keepingCapacity: true)
            var i = r.lowerBound + 1
            while i < r.upperBound - 1 {
                buffer.append(chunk[i])
                if chunk[i] == 34 && i + 1 < r.upperBound - 1 && chunk[i + 1] == 34 { i += 1 }
                i += 1
            }
            let problem = buffer.withUnsafeBufferPointer { TextCheck.problem($0, isID: isID) }
            if let problem { throw FormatError(problem, source: source, line: line, field: name) }
            return String(decoding: buffer, as: UTF8.self)  // checked: valid UTF-8
        }
        let raw = UnsafeBufferPointer(rebasing: chunk[range])
        if let problem = TextCheck.problem(raw, isID: isID) { throw FormatError(problem, source: source, line: line, field: name) }
        return String(decoding: raw, as: UTF8.self)  // checked: valid UTF-8
    }

    func number(_ chunk: UnsafeBufferPointer<UInt8>, _ fields: [Range<Int>], _ column: Int) -> Double? {
        guard column < fields.count else { return nil }
        var r = Self.trimmed(chunk, fields[column])
        if r.count >= 2 && chunk[r.lowerBound] == 34 && chunk[r.upperBound - 1] == 34 {
            r = Self.trimmed(chunk, (r.lowerBound + 1)..<(r.upperBound - 1))
        }
        guard !r.isEmpty else { return nil }
        guard let value = DecimalParser.parse(UnsafeBufferPointer(rebasing: chunk[r])), value.isFinite else { return nil }
        return value
    }

    func makeRow(
        _ chunk: UnsafeBufferPointer<UInt8>, _ fields: [Range<Int>], line: Int, row: Int, unquoteBuffer: inout [UInt8]
    ) throws(FormatError) -> MarkerRow {
        var id = ""
        if let column = columns.id, column < fields.count {
            id = try text(chunk, fields[column], name: "id", line: line, buffer: &unquoteBuffer)
        }
        if id.isEmpty { id = String(row) }
        var position: PixelPoint?
        if let a = number(chunk, fields, columns.first), let b = number(chunk, fields, columns.second) {
            if columns.isLatLng {
                if let conversion {
                    let pixel = conversion.pixel(LatLng(lat: b, lng: a))
                    position = pixel.isFinite ? pixel : nil
                }
            } else {
                position = PixelPoint(x: a, y: b)
            }
        }
        var note: String?
        if let column = columns.note, column < fields.count {
            let value = try text(chunk, fields[column], name: "note", line: line, buffer: &unquoteBuffer)
            if !value.isEmpty { note = value }
        }
        var author: String?
        if let column = columns.author, column < fields.count {
            let value = try text(chunk, fields[column], name: "author", line: line, buffer: &unquoteBuffer)
            if !value.isEmpty { author = value }
        }
        return MarkerRow(id: id, line: line, position: position, note: note, author: author)
    }
}
