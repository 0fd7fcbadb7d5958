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
    /// Columns of the punch-item fields a PlanMark export writes (`uuid`, `status`, `category`, `priority`,
    /// `assignee`, `due`, `capturedAt`), by field name; empty for a plain position file.
    public var fields: [PunchItemField: Int] = [:]
    /// Number of columns in the header.
    public var count: Int

    /// The column names this reader knows.
    /// Besides these, a PlanMark export's own columns (`number`, `rooms`, `createdAt`, `updatedAt`) are
    /// accepted and ignored: a store gives numbers and works out rooms itself (and whether a marker needs placing).
    public static let known = ["id", "x", "y", "lat", "lng", "note", "author"] + PunchItemField.allCases.map { $0.rawValue.lowercased() }
        + ignored
    /// Columns an export writes that an import does not read.
    public static let ignored = ["number", "rooms", "createdat", "updatedat", "needsplacement"]

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
                                  message: "unknown column \"\(raw)\" (expected a header naming x,y or lat,lng, and optionally id, note, author, uuid, status, category, priority, assignee, due, capturedAt)")
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
        for field in PunchItemField.allCases {
            if let column = index[field.rawValue.lowercased()] { self.fields[field] = column }
        }
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
        if let counts = plainLineCounts(chunk) { return counts }
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

    /// `lineCounts` eight bytes at a time for a chunk without a space, tab or carriage return, whose
    /// first byte is not a line break and with no two line breaks in a row: then no line is blank,
    /// so every line is a row. Nil for any other chunk (the byte loop decides).
    /// - Complexity: O(n) for n bytes.
    static func plainLineCounts(_ chunk: UnsafeBufferPointer<UInt8>) -> (lines: Int, rows: Int)? {
        guard let base = chunk.baseAddress, chunk.count > 0, base[0] != 10 else { return nil }
        let count = chunk.count
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        /// 0x80 in each byte of `x` that is zero, exactly (no borrow between bytes).
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { ~(((x & low7) &+ low7) | x | low7) }
        var newlines = 0
        var special: UInt64 = 0
        var previousTop: UInt64 = 0  // 0x80 when the byte before this word is a line break
        var i = 0
        while i + 8 <= count {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let breaks = zeroBytes(word ^ 0x0A0A_0A0A_0A0A_0A0A)
            newlines &+= Int(truncatingIfNeeded: ((breaks >> 7) &* 0x0101_0101_0101_0101) >> 56)
            special |= zeroBytes(word ^ 0x2020_2020_2020_2020) | zeroBytes(word ^ 0x0909_0909_0909_0909)
                | zeroBytes(word ^ 0x0D0D_0D0D_0D0D_0D0D) | (breaks & (breaks << 8)) | (breaks & (previousTop >> 56))
            previousTop = breaks & 0x8000_0000_0000_0000
            i += 8
        }
        if special != 0 { return nil }
        var previousBreak = previousTop != 0
        while i < count {
            let byte = base[i]
            if byte == 32 || byte == 9 || byte == 13 { return nil }
            if byte == 10 {
                if previousBreak { return nil }
                newlines += 1
                previousBreak = true
            } else {
                previousBreak = false
            }
            i += 1
        }
        let lines = newlines + (base[count - 1] == 10 ? 0 : 1)
        return (lines, lines)
    }

    /// Parses every line of `chunk`, appending a row for each non-blank one.
    /// - Parameters:
    ///   - firstLine: the file line number of the chunk's first line.
    ///   - firstRow: the data row number of the chunk's first non-blank line (default ids).
    /// - Complexity: O(n) for n bytes.
    public func parse(_ chunk: UnsafeBufferPointer<UInt8>, firstLine: Int, firstRow: Int, into rows: inout [MarkerRow]) throws(FormatError) {
        if columns.fields.isEmpty {
            try forEachRow(chunk, firstLine: firstLine, firstRow: firstRow) { view in
                rows.append(view.markerRow())
            }
            return
        }
        var failure: FormatError?
        try forEachRow(chunk, firstLine: firstLine, firstRow: firstRow) { view in
            guard failure == nil else { return }
            do throws(FormatError) {
                rows.append(try punchItemRow(view))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// `view` as a row with its punch-item fields, each checked: `uuid` RFC 4122 text, `due` `YYYY-MM-DD`,
    /// `capturedAt` RFC 3339 with an offset; text kept as written (`status` and `priority` are checked by
    /// the store). An empty field is absent. Errors name the line and the field.
    /// - Complexity: O(length of the row).
    func punchItemRow(_ view: CSVRowView) throws(FormatError) -> MarkerRow {
        var row = view.markerRow()
        var scratch: UnsafeMutableBufferPointer<UInt8>?
        defer { scratch?.deallocate() }
        for (field, column) in columns.fields where column < view.fieldCount {
            let bytes = try keptText(view.chunk, view.starts[column], view.ends[column], name: field.rawValue, line: view.line,
                                     scratch: &scratch)
            if bytes.isEmpty { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            switch field {
            case .uuid:
                guard let uuid = MarkerUUID(text: text.trimmingCharacters(in: " \t")) else {
                    throw FormatError(.malformed, source: source, line: view.line, message: "uuid \"\(text)\" is not RFC 4122 text (8-4-4-4-12 hexadecimal digits)")
                }
                row.uuid = uuid
            case .status: row.status = text.trimmingCharacters(in: " \t")
            case .priority: row.priority = text.trimmingCharacters(in: " \t")
            case .category: row.category = text
            case .assignee: row.assignee = text
            case .due:
                guard let due = DueDate(text: text.trimmingCharacters(in: " \t")) else {
                    throw FormatError(.malformed, source: source, line: view.line, message: "due \"\(text)\" is not a date YYYY-MM-DD")
                }
                row.due = due
            case .capturedAt:
                guard let time = CaptureTime(text: text.trimmingCharacters(in: " \t")) else {
                    throw FormatError(.malformed, source: source, line: view.line,
                                      message: "capturedAt \"\(text)\" is not an RFC 3339 time with an offset (2026-11-20T09:41:07+01:00)")
                }
                row.capturedAt = time
            }
        }
        return row
    }

    /// Parses every line of `chunk` and hands each non-blank one to `body` as a view into the chunk,
    /// without making a `String` or any other heap object per row: the kept text of the id, note and
    /// author is checked (the same errors as `parse`) but left as bytes.
    ///
    /// Each line is scanned once: line break, field separators, quotes and blankness in one pass, the
    /// field bounds kept in a buffer allocated once per call.
    /// - Parameters:
    ///   - firstLine: the file line number of the chunk's first line.
    ///   - firstRow: the data row number of the chunk's first non-blank line (default ids).
    /// - Complexity: O(n) for n bytes.
    public func forEachRow(
        _ chunk: UnsafeBufferPointer<UInt8>, firstLine: Int, firstRow: Int, _ body: (CSVRowView) -> Void
    ) throws(FormatError) {
        let count = chunk.count
        guard count > 0 else { return }
        let columnCount = columns.count
        let starts = UnsafeMutableBufferPointer<Int>.allocate(capacity: columnCount)
        let ends = UnsafeMutableBufferPointer<Int>.allocate(capacity: columnCount)
        // Unquoted text is written at its field's own offset: never longer than the field, so fields
        // never overlap here. Allocated on the first quoted text field only.
        var scratch: UnsafeMutableBufferPointer<UInt8>?
        defer {
            starts.deallocate()
            ends.deallocate()
            scratch?.deallocate()
        }
        var line = firstLine
        var row = firstRow
        var start = 0
        let base = chunk.baseAddress!
        let last = columnCount - 1
        let first = columns.first, second = columns.second, isLatLng = columns.isLatLng
        while start < count {
            // The fast path: every field plain (no quote, space, control or non-ASCII byte), every
            // coordinate `-?digits[.digits]` of at most 19 significant digits, `\n` or the chunk's end
            // after the last field. Fields are found, and coordinates parsed, in one pass; any other line
            // is left to the general path below, from its start.
            fast: do {
                var i = start
                var position = PixelPoint(x: 0, y: 0)
                var xText = UnsafeBufferPointer<UInt8>(start: nil, count: 0), yText = xText
                for k in 0...last {
                    let fieldStart = i
                    let terminator: UInt8 = k == last ? 10 : 44
                    if k == first || k == second {
                        guard let number = Self.plainNumber(base, &i, count) else { break fast }
                        if k == first { position.x = number.value } else { position.y = number.value }
                        if number.isCanonical && !isLatLng {
                            let text = UnsafeBufferPointer(start: base + fieldStart, count: i - fieldStart)
                            if k == first { xText = text } else { yText = text }
                        }
                    } else {
                        while i < count {
                            let b = base[i]
                            if b == terminator || b == 34 || b == 44 || (b < 32 && b != 9) || b >= 127 { break }
                            i += 1
                        }
                    }
                    if i < count {
                        guard base[i] == terminator else { break fast }
                    } else {
                        guard k == last else { break fast }
                    }
                    starts[k] = fieldStart
                    ends[k] = i
                    i += 1
                }
                var id = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
                if let column = columns.id { id = UnsafeBufferPointer(start: base + starts[column], count: ends[column] - starts[column]) }
                var note = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
                if let column = columns.note { note = UnsafeBufferPointer(start: base + starts[column], count: ends[column] - starts[column]) }
                var author = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
                if let column = columns.author { author = UnsafeBufferPointer(start: base + starts[column], count: ends[column] - starts[column]) }
                var point: PixelPoint? = position
                if isLatLng {
                    point = nil
                    if let conversion {
                        let pixel = conversion.pixel(LatLng(lat: position.y, lng: position.x))
                        point = pixel.isFinite ? pixel : nil
                    }
                }
                body(CSVRowView(id: id, note: note, author: author, line: line, row: row, position: point,
                                xText: xText, yText: yText, chunk: chunk, starts: UnsafeBufferPointer(starts),
                                ends: UnsafeBufferPointer(ends), fieldCount: columnCount))
                row += 1
                line += 1
                start = i
                continue
            }
            var i = start
            var fields = 0
            var fieldStart = start
            var inQuotes = false
            var blank = true
            while i < count {
                let b = chunk[i]
                if b > 44 {
                    blank = false
                } else if b == 10 {
                    break
                } else if b == 44 {
                    blank = false
                    if !inQuotes {
                        if fields < columnCount { starts[fields] = fieldStart; ends[fields] = i }
                        fields += 1
                        fieldStart = i + 1
                    }
                } else if b == 34 {
                    blank = false
                    inQuotes.toggle()
                } else if b != 32 && b != 9 && b != 13 {
                    blank = false
                }
                i += 1
            }
            let end = i
            if !blank {
                var lineEnd = end
                if chunk[lineEnd - 1] == 13 { lineEnd -= 1 }
                if inQuotes {
                    throw FormatError(.malformed, source: source, line: line, message: "unterminated quoted field (a line break inside quotes is not supported)")
                }
                if fields < columnCount { starts[fields] = fieldStart; ends[fields] = lineEnd }
                fields += 1
                if fields > columnCount {
                    throw FormatError(.malformed, source: source, line: line,
                                      message: "\(fields) fields, but the header names \(columnCount)")
                }
                var id = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
                if let column = columns.id, column < fields {
                    id = try keptText(chunk, starts[column], ends[column], name: "id", line: line, scratch: &scratch)
                }
                var position: PixelPoint?
                if columns.first < fields, columns.second < fields,
                   let a = Self.number(chunk, starts[columns.first], ends[columns.first]),
                   let b = Self.number(chunk, starts[columns.second], ends[columns.second]) {
                    if columns.isLatLng {
                        if let conversion {
                            let pixel = conversion.pixel(LatLng(lat: b, lng: a))
                            position = pixel.isFinite ? pixel : nil
                        }
                    } else {
                        position = PixelPoint(x: a, y: b)
                    }
                }
                var note = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
                if let column = columns.note, column < fields {
                    note = try keptText(chunk, starts[column], ends[column], name: "note", line: line, scratch: &scratch)
                }
                var author = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
                if let column = columns.author, column < fields {
                    author = try keptText(chunk, starts[column], ends[column], name: "author", line: line, scratch: &scratch)
                }
                body(CSVRowView(id: id, note: note, author: author, line: line, row: row, position: position,
                                 chunk: chunk, starts: UnsafeBufferPointer(starts), ends: UnsafeBufferPointer(ends), fieldCount: fields))
                row += 1
            }
            line += 1
            start = end + 1
        }
    }

    /// The field's bytes without surrounding spaces and tabs.
    @inline(__always)
    static func trimmed(_ chunk: UnsafeBufferPointer<UInt8>, _ lower: Int, _ upper: Int) -> Range<Int> {
        var lower = lower, upper = upper
        while lower < upper && (chunk[lower] == 32 || chunk[lower] == 9) { lower += 1 }
        while upper > lower && (chunk[upper - 1] == 32 || chunk[upper - 1] == 9) { upper -= 1 }
        return lower..<upper
    }

    /// The text of the field `lower..<upper` as kept (see the type's documentation), checked; `name`
    /// and `line` name it in errors. A quoted field is unquoted into `scratch` at the field's offset.
    /// - Complexity: O(n) for the field's n bytes.
    @inline(__always)
    func keptText(
        _ chunk: UnsafeBufferPointer<UInt8>, _ lower: Int, _ upper: Int, name: String, line: Int,
        scratch: inout UnsafeMutableBufferPointer<UInt8>?
    ) throws(FormatError) -> UnsafeBufferPointer<UInt8> {
        let r = Self.trimmed(chunk, lower, upper)
        let isID = name == "id"
        if r.count >= 2 && chunk[r.lowerBound] == 34 && chunk[r.upperBound - 1] == 34 {
            if scratch == nil { scratch = .allocate(capacity: chunk.count) }
            let out = scratch!
            var n = r.lowerBound
            var i = r.lowerBound + 1
            while i < r.upperBound - 1 {
                out[n] = chunk[i]
                n += 1
                if chunk[i] == 34 && i + 1 < r.upperBound - 1 && chunk[i + 1] == 34 { i += 1 }
                i += 1
            }
            let text = UnsafeBufferPointer(rebasing: out[r.lowerBound..<n])
            if let problem = TextCheck.problem(text, isID: isID) { throw FormatError(problem, source: source, line: line, field: name) }
            return text
        }
        let raw = UnsafeBufferPointer(rebasing: chunk[lower..<upper])
        if let problem = TextCheck.problem(raw, isID: isID) { throw FormatError(problem, source: source, line: line, field: name) }
        return raw
    }

    /// Parses `-?digits[.digits]` with at most 19 significant digits at `index`, moving `index` past
    /// it; nil (with `index` anywhere) for anything else, which the general path then parses.
    /// `isCanonical` is true when the text is exactly what `ReportBuffer.appendNumber` writes for the
    /// value, so a report can copy it: no leading zero (but `0` itself and `0.`), no trailing fraction
    /// zero, not `-0`, at most 15 significant digits (such a decimal is the only one of at most 15
    /// digits that reads as its double, hence the shortest round-trip text), and not below 0.001 in
    /// magnitude unless zero.
    /// - Complexity: O(n) for the field's n bytes.
    @inline(__always)
    static func plainNumber(
        _ base: UnsafePointer<UInt8>, _ index: inout Int, _ count: Int
    ) -> (value: Double, isCanonical: Bool)? {
        var i = index
        var negative = false
        if i < count && base[i] == 45 {
            negative = true
            i += 1
        }
        let integerStart = i
        // Leading zeros, then the digits; more than 19 significant digits wrap the mantissa, and
        // are refused below by their count.
        while i < count && base[i] == 48 { i += 1 }
        var mantissa: UInt64 = 0
        var significantStart = i
        while i < count {
            let digit = base[i] &- 48
            guard digit < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            i += 1
        }
        var digits = i - significantStart
        let integerLength = i - integerStart
        guard integerLength > 0 else { return nil }
        var fractionDigits = 0
        var trailingZero = false
        if i < count && base[i] == 46 {
            i += 1
            let fractionStart = i
            if mantissa == 0 {
                while i < count && base[i] == 48 { i += 1 }
            }
            significantStart = i
            while i < count {
                let digit = base[i] &- 48
                guard digit < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                i += 1
            }
            digits += i - significantStart
            fractionDigits = i - fractionStart
            guard fractionDigits > 0 else { return nil }
            trailingZero = base[i - 1] == 48
        }
        guard digits <= 19 else { return nil }
        let value = DecimalParser.value(mantissa: mantissa, digits: digits, fractionDigits: fractionDigits, negative: negative)
            ?? DecimalParser.parseSlow(UnsafeBufferPointer(start: base + index, count: i - index))
        guard let value else { return nil }
        index = i
        let isCanonical = digits <= 15 && !trailingZero && (integerLength == 1 || base[integerStart] != 48)
            && !(negative && mantissa == 0)
            && (integerLength > 1 || base[integerStart] != 48 || fractionDigits == 0 || fractionDigits - digits <= 2)
        return (value, isCanonical)
    }

    /// The field `lower..<upper` as a finite number, or nil.
    /// - Complexity: O(n) for the field's n bytes.
    @inline(__always)
    static func number(_ chunk: UnsafeBufferPointer<UInt8>, _ lower: Int, _ upper: Int) -> Double? {
        var r = trimmed(chunk, lower, upper)
        if r.count >= 2 && chunk[r.lowerBound] == 34 && chunk[r.upperBound - 1] == 34 {
            r = trimmed(chunk, r.lowerBound + 1, r.upperBound - 1)
        }
        guard !r.isEmpty else { return nil }
        guard let value = DecimalParser.parse(UnsafeBufferPointer(rebasing: chunk[r])), value.isFinite else { return nil }
        return value
    }
}

/// One data row of a markers CSV file as views into the block being parsed, valid only during the
/// call of `CSVMarkerParser.forEachRow` that hands it out. Text is checked (valid UTF-8, no NUL; no
/// control character in an id) and kept as bytes.
public struct CSVRowView {
    /// The id as kept; empty when the row's id is its data row number `row`.
    public let id: UnsafeBufferPointer<UInt8>
    /// The note as kept; empty for none.
    public let note: UnsafeBufferPointer<UInt8>
    /// The author as kept; empty for none.
    public let author: UnsafeBufferPointer<UInt8>
    /// The 1-based file line.
    public let line: Int
    /// The 1-based data row number.
    public let row: Int
    /// The position in pixels, or nil when a coordinate did not parse or is not finite.
    public let position: PixelPoint?
    /// The text of `x` when it is exactly what `ReportBuffer.appendNumber` writes for `position.x`
    /// (so a report can copy it); empty otherwise.
    public let xText: UnsafeBufferPointer<UInt8>
    /// The same for `y`.
    public let yText: UnsafeBufferPointer<UInt8>
    /// The block being parsed, and where each field of this row starts and ends in it (`fieldCount` fields,
    /// at most the header's count), for the columns beyond id, position, note and author.
    let chunk: UnsafeBufferPointer<UInt8>
    let starts: UnsafeBufferPointer<Int>
    let ends: UnsafeBufferPointer<Int>
    let fieldCount: Int

    /// Creates a view; `xText` and `yText` as documented, or empty; `chunk`, `starts`, `ends` and
    /// `fieldCount` locate the row's fields (none by default).
    public init(
        id: UnsafeBufferPointer<UInt8>, note: UnsafeBufferPointer<UInt8>, author: UnsafeBufferPointer<UInt8>,
        line: Int, row: Int, position: PixelPoint?,
        xText: UnsafeBufferPointer<UInt8> = .init(start: nil, count: 0),
        yText: UnsafeBufferPointer<UInt8> = .init(start: nil, count: 0),
        chunk: UnsafeBufferPointer<UInt8> = .init(start: nil, count: 0),
        starts: UnsafeBufferPointer<Int> = .init(start: nil, count: 0),
        ends: UnsafeBufferPointer<Int> = .init(start: nil, count: 0),
        fieldCount: Int = 0
    ) {
        self.id = id
        self.note = note
        self.author = author
        self.line = line
        self.row = row
        self.position = position
        self.xText = xText
        self.yText = yText
        self.chunk = chunk
        self.starts = starts
        self.ends = ends
        self.fieldCount = fieldCount
    }

    /// The row as a `MarkerRow` (strings made here).
    public func markerRow() -> MarkerRow {
        MarkerRow(
            id: id.isEmpty ? String(row) : String(decoding: id, as: UTF8.self),  // checked: valid UTF-8
            line: line, position: position,
            note: note.isEmpty ? nil : String(decoding: note, as: UTF8.self),
            author: author.isEmpty ? nil : String(decoding: author, as: UTF8.self),
            ref: id.isEmpty ? nil : String(decoding: id, as: UTF8.self))
    }
}
