import PlanMarkGeometry

/// Reads a markers file (CSV or GeoJSON, or stdin for `-`) in batches, so a million markers never sit
/// in memory at once.
///
/// CSV is read in blocks of whole lines; each block is split at line breaks and parsed on all cores.
/// GeoJSON is parsed one feature at a time into rows.
///
/// Memory: the CSV buffer holds about one block plus the longest line (at most `maxLineLength`), and
/// consumed bytes are dropped once per block, so reading is linear in the file's size.
/// Text is kept exactly as read or refused (`FormatError` with a `TextProblem`): see
/// `CSVMarkerParser` and `row(from:index:source:idNumberTexts:)`.
public struct MarkerFileReader {
    /// The file name for errors.
    public let source: String
    /// The file's format.
    public let format: MarkerFileFormat
    /// True when the file gives latLng (`lat,lng` CSV).
    public private(set) var isLatLng = false

    private var input: InputFile?
    private var parser: CSVMarkerParser?
    private var buffer: [UInt8] = []
    /// Bytes read per block by this reader.
    private var blockSize: Int
    /// The longest line this reader accepts.
    private let maxLineLength: Int
    private var atEnd = false
    private var nextLine = 1
    private var nextRow = 1
    private var pending: [MarkerRow] = []
    private var pendingStart = 0

    /// Bytes read per block.
    public static let blockSize = 4 << 20
    /// Bytes a block once the input is in memory (`readInputIntoMemory`).
    public static let inMemoryBlockSize = 1 << 20
    /// A line longer than this is refused before more memory is spent on it.
    public static let maxLineLength = 16 << 20

    /// Opens `path` (`-` for stdin). The format comes from `format`, else from the file name, else
    /// CSV. `conversion` turns latLng rows into pixels; a latLng file without it is refused.
    public init(path: String, format: MarkerFileFormat?, conversion: LatLngConversion?) throws(FormatError) {
        try self.init(input: try InputFile(path: path), format: format ?? MarkerFileFormat.inferred(fromPath: path) ?? .csv,
                      conversion: conversion)
    }

    /// Reads `input` (a file, stdin, or bytes in memory) as `format`. `blockSize` and
    /// `maxLineLength` can be made small to exercise block boundaries (tests, fuzzing).
    public init(
        input: InputFile, format: MarkerFileFormat, conversion: LatLngConversion?,
        blockSize: Int = MarkerFileReader.blockSize, maxLineLength: Int = MarkerFileReader.maxLineLength
    ) throws(FormatError) {
        source = input.source
        self.format = format
        self.blockSize = max(1, blockSize)
        self.maxLineLength = max(1, maxLineLength)
        switch format {
        case .geojson:
            pending = try Self.readGeoJSON(input.readAll(), source: source)
            atEnd = true
        case .csv:
            self.input = input
            try readHeader(conversion: conversion)
        }
    }

    /// The next rows, at most `maxCount`; nil when the file is exhausted.
    /// - Complexity: O(bytes read), spread over the cores.
    public mutating func nextBatch(maxCount: Int = .max) throws(FormatError) -> [MarkerRow]? {
        while pendingStart >= pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            if atEnd && buffer.isEmpty { return nil }
            try fillPending()
        }
        let end = min(pending.count, pendingStart + max(1, maxCount))
        defer { pendingStart = end }
        if pendingStart == 0 && end == pending.count { return pending }
        return Array(pending[pendingStart..<end])
    }

    /// Reads the rest of the input into memory, so that reading rows never waits for a file or a pipe again
    /// (an import reads its input before it takes the store's write lock). Rows are still parsed block by block.
    /// - Complexity: O(bytes left); memory: those bytes.
    /// Blocks of at most `inMemoryBlockSize` from here on: the first rows are ready sooner, for a caller that
    /// works on each block while the next is parsed.
    public mutating func readInputIntoMemory() throws(FormatError) {
        blockSize = min(blockSize, Self.inMemoryBlockSize)
        guard let input, !atEnd else { return }
        let rest = try input.readAll(limit: .max)
        self.input = InputFile(bytes: rest, source: source)
        bytesInMemory = buffer.count + rest.count
    }

    /// The bytes of input read into memory by `readInputIntoMemory` (0 before), for sizing what follows.
    public private(set) var bytesInMemory = 0

    /// Rows parsed already and not yet handed out (a GeoJSON file's, which is parsed when opened).
    public var rowsInMemory: Int { pending.count - pendingStart }

    /// Reads every remaining row.
    public mutating func readAll() throws(FormatError) -> [MarkerRow] {
        var rows: [MarkerRow] = []
        while let batch = try nextBatch() { rows.append(contentsOf: batch) }
        return rows
    }

    // MARK: CSV

    private mutating func readMore() throws(FormatError) {
        guard let input, !atEnd else { return }
        if try input.read(into: &buffer, maxCount: blockSize) == 0 { atEnd = true }
    }

    /// Reads lines until the first non-blank one, the header. Blank lines before it are passed over
    /// with an offset, and the consumed bytes dropped once per block, never once per line.
    /// - Complexity: O(bytes up to the end of the header).
    private mutating func readHeader(conversion: LatLngConversion?) throws(FormatError) {
        var lineStart = 0
        var scanned = 0
        defer { buffer.removeSubrange(0..<min(lineStart, buffer.count)) }
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 10) {
                let lineBytes = Array(buffer[lineStart..<newline])
                lineStart = newline + 1
                scanned = lineStart
                if try takeHeader(lineBytes, conversion: conversion) { return }
                nextLine += 1
                continue
            }
            scanned = buffer.count
            if atEnd {
                let lineBytes = Array(buffer[lineStart...])
                lineStart = buffer.count
                if try takeHeader(lineBytes, conversion: conversion) { return }
                throw FormatError(.malformed, source: source, line: nextLine, message: "empty file: expected a CSV header naming x,y or lat,lng")
            }
            if buffer.count - lineStart > maxLineLength {
                throw FormatError(.malformed, source: source, line: nextLine, message: "the first line is longer than \(maxLineLength) bytes; not a markers CSV file")
            }
            if lineStart >= blockSize {
                // Drop the blank lines read so far before reading more.
                buffer.removeSubrange(0..<lineStart)
                scanned -= lineStart
                lineStart = 0
            }
            try readMore()
        }
    }

    /// Takes `bytes` as the header if it is not blank; returns false for a blank line.
    private mutating func takeHeader(_ bytes: [UInt8], conversion: LatLngConversion?) throws(FormatError) -> Bool {
        var bytes = bytes
        if nextLine == 1 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if bytes.last == 13 { bytes.removeLast() }
        if bytes.allSatisfy({ $0 == 32 || $0 == 9 }) { return false }
        let problem = bytes.withUnsafeBufferPointer { TextCheck.problem($0, isID: false) }
        if let problem {
            var error = FormatError(.malformed, source: source, line: nextLine, message: "\(problem) in the header")
            error.problem = problem
            throw error
        }
        let text = String(decoding: bytes, as: UTF8.self)  // checked: valid UTF-8
        let columns = try CSVColumns(header: text.split(separator: ",", omittingEmptySubsequences: false).map { field in
            var name = String(field).trimmingCharacters(in: " \t")
            if name.count >= 2 && name.hasPrefix("\"") && name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
            return name
        }, source: source, line: nextLine)
        if columns.isLatLng && conversion == nil {
            throw FormatError(.usage, source: source, line: nextLine, message: "the file gives lat,lng; --zoom is required to convert it to pixels")
        }
        isLatLng = columns.isLatLng
        parser = CSVMarkerParser(columns: columns, conversion: conversion, source: source)
        nextLine += 1
        return true
    }

    private mutating func fillPending() throws(FormatError) {
        if let pieces = try nextBlock({ $0 }) {
            pending = Array(pieces.joined())
            pendingStart = 0
        }
    }

    /// Reads the next block of rows and hands it to `transform` in pieces, on all cores; returns the
    /// results in file order, or nil at the end of the file. Parsing and the caller's work on a piece
    /// run in one task, so rows never have to be gathered in one array.
    /// - Complexity: O(bytes in the block), spread over the cores.
    public mutating func nextBlock<T>(_ transform: ([MarkerRow]) -> T) throws(FormatError) -> [T]? {
        try nextBlock(rows: transform, csv: { parser, piece, line, row throws(FormatError) in
            var rows: [MarkerRow] = []
            try parser.parse(piece, firstLine: line, firstRow: row, into: &rows)
            return transform(rows)
        })
    }

    /// Reads the next block and hands it to the caller in pieces, on all cores; returns the results in
    /// file order, or nil at the end of the file. A CSV block's pieces go to `csv` unparsed, with the
    /// parser and the file line and data row number of the piece's first line, so the caller can walk
    /// them with `CSVMarkerParser.forEachRow` and make no object per row; rows already parsed (GeoJSON,
    /// or left by `nextBatch`) go to `rows`.
    /// - Complexity: O(bytes in the block), spread over the cores.
    public mutating func nextBlock<T>(
        rows transform: ([MarkerRow]) -> T,
        csv: (CSVMarkerParser, UnsafeBufferPointer<UInt8>, Int, Int) throws(FormatError) -> T
    ) throws(FormatError) -> [T]? {
        if pendingStart < pending.count {
            // Rows already parsed (GeoJSON, or left by `nextBatch`): up to a block's worth of them.
            let end = min(pending.count, pendingStart + Self.rowsPerBlock)
            let rows = pending[pendingStart..<end]
            pendingStart = end
            let parts = rows.count < 4096 ? 1 : processorCount * 2
            let step = (rows.count + parts - 1) / parts
            return parallelMap(parts) { part in
                let lower = rows.startIndex + part * step
                return transform(Array(rows[lower..<min(rows.endIndex, lower + step)]))
            }
        }
        guard let parser, !(atEnd && buffer.isEmpty) else { return nil }
        // Gather a block of complete lines (or the rest of the file). Bytes already searched hold no
        // line break, so each search covers only what was read since: a long line costs O(its length).
        var cut = 0
        var searched = 0
        while true {
            if !atEnd && buffer.count < blockSize { try readMore() }
            if atEnd {
                cut = buffer.count
                break
            }
            if buffer.count >= blockSize {
                if let newline = buffer[searched...].lastIndex(of: 10) {
                    cut = newline + 1
                    break
                }
                searched = buffer.count
                if buffer.count > maxLineLength {
                    throw FormatError(.malformed, source: source, line: nextLine, message: "a line is longer than \(maxLineLength) bytes")
                }
                try readMore()
            }
        }
        if cut == 0 { return nil }
        var line = nextLine, row = nextRow
        let results: [Result<T, FormatError>] = buffer.withUnsafeBufferPointer { all in
            let block = UnsafeBufferPointer(rebasing: all[0..<cut])
            let pieces = Self.split(block, into: processorCount * 2)
            var starts: [(line: Int, row: Int)] = []
            for piece in pieces {
                starts.append((line, row))
                let counts = CSVMarkerParser.lineCounts(UnsafeBufferPointer(rebasing: block[piece]))
                line += counts.lines
                row += counts.rows
            }
            return parallelMap(pieces.count) { index in
                do throws(FormatError) {
                    return .success(try csv(parser, UnsafeBufferPointer(rebasing: block[pieces[index]]),
                                            starts[index].line, starts[index].row))
                } catch {
                    return .failure(error)
                }
            }
        }
        nextLine = line
        nextRow = row
        buffer.removeSubrange(0..<cut)
        var values: [T] = []
        values.reserveCapacity(results.count)
        for result in results { values.append(try result.get()) }
        return values
    }

    /// Rows handed out per block when they are already parsed.
    static let rowsPerBlock = 1 << 17

    /// Splits `block` into about `parts` ranges that end at line breaks.
    static func split(_ block: UnsafeBufferPointer<UInt8>, into parts: Int) -> [Range<Int>] {
        guard block.count > 1 << 16, parts > 1 else { return [0..<block.count] }
        var ranges: [Range<Int>] = []
        var start = 0
        let step = block.count / parts
        while start < block.count {
            var end = min(block.count, start + step)
            while end < block.count && block[end - 1] != 10 { end += 1 }
            ranges.append(start..<end)
            start = end
        }
        return ranges
    }

    // MARK: GeoJSON

    /// Parses a FeatureCollection of Point features into rows.
    /// - Complexity: O(n) for n bytes.
    static func readGeoJSON(_ bytes: [UInt8], source: String) throws(FormatError) -> [MarkerRow] {
        var rows: [MarkerRow] = []
        let members: [(String, JSONValue)]
        do {
            members = try JSONParser.parseFeatureCollection(bytes) { index, feature, idNumberTexts in
                rows.append(try row(from: feature, index: index, source: source, idNumberTexts: idNumberTexts))
            }
        } catch let error as FormatError {
            throw error
        } catch let error as JSONParser.Failure {
            throw error.formatError(source: source)
        } catch {
            throw FormatError(.malformed, source: source, message: "\(error)")
        }
        guard members.first(where: { $0.0 == "type" })?.1 == .string("FeatureCollection") else {
            throw FormatError(.malformed, source: source, path: "$.type", message: "expected \"FeatureCollection\"")
        }
        guard case .array? = members.first(where: { $0.0 == "features" })?.1 else {
            throw FormatError(.malformed, source: source, path: "$.features", message: "expected an array of features")
        }
        return rows
    }

    /// One GeoJSON Point feature as a row. Its id is the feature's `id`, else `properties.id`, else its
    /// 1-based position (`null` and `""` count as absent); a string id is kept exactly, a numeric one
    /// as its source text when `idNumberTexts` has it (from `JSONParser`, keyed by JSON path), else as
    /// `JSONNumber.text` writes the value. An id of another type, or with a control character (C0 but
    /// tab, or DEL), is refused. `properties.note` and `properties.author` must be strings when present.
    /// A position that is not two finite numbers gives a row without position.
    /// Errors name the feature's JSON path (`$.features[index]...`).
    public static func row(
        from feature: JSONValue, index: Int, source: String, idNumberTexts: [String: String] = [:]
    ) throws(FormatError) -> MarkerRow {
        let path = "$.features[\(index)]"
        guard case .object = feature, feature["type"] == .string("Feature") else {
            throw FormatError(.malformed, source: source, path: path, message: "expected a GeoJSON Feature object")
        }
        let properties = feature["properties"]
        var id: String
        let (idValue, idPath) = FeatureID.find(in: feature, path: path)
        switch idValue {
        case .string(let text)?: id = text
        case .number(let number)?: id = idNumberTexts[idPath] ?? JSONNumber.text(number)
        case nil: id = ""
        case let other?:
            throw FormatError(.malformed, source: source, path: idPath, message: "expected a string or a number, found \(other.typeName)")
        }
        if let problem = TextCheck.idProblem(id) { throw FormatError(problem, source: source, path: idPath) }
        let givenID = id.isEmpty ? nil : id
        if id.isEmpty { id = String(index + 1) }
        guard let geometry = feature["geometry"], case .object = geometry, geometry["type"] == .string("Point") else {
            throw FormatError(.malformed, source: source, path: path + ".geometry", message: "expected a Point geometry")
        }
        var position: PixelPoint?
        if case .array(let pair)? = geometry["coordinates"], pair.count >= 2,
           case .number(let x) = pair[0], case .number(let y) = pair[1], x.isFinite, y.isFinite {
            position = PixelPoint(x: x, y: y)
        }
        func text(_ key: String) throws(FormatError) -> String? {
            switch properties?[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            case let other?:
                throw FormatError(.malformed, source: source, path: path + ".properties." + key, message: "expected a string, found \(other.typeName)")
            }
        }
        // A PlanMark export (its properties carry `number`) gives the marker's number as the feature id and
        // the file's own reference as `properties.id`; elsewhere the feature id is the reference.
        let isExport = properties?["number"] != nil
        let ref: String?
        if isExport {
            ref = try text("id")
        } else {
            ref = givenID
        }
        var row = MarkerRow(id: id, line: 0, position: position, note: try text("note"), author: try text("author"), ref: ref)
        let at = path + ".properties."
        if let text = try text("uuid") {
            guard let uuid = MarkerUUID(text: text) else {
                throw FormatError(.malformed, source: source, path: at + "uuid", message: "\"\(text)\" is not RFC 4122 text (8-4-4-4-12 hexadecimal digits)")
            }
            row.uuid = uuid
        }
        row.status = try text("status")
        row.category = try text("category")
        row.priority = try text("priority")
        row.assignee = try text("assignee")
        if let text = try text("due") {
            guard let due = DueDate(text: text) else {
                throw FormatError(.malformed, source: source, path: at + "due", message: "\"\(text)\" is not a date YYYY-MM-DD")
            }
            row.due = due
        }
        if let text = try text("capturedAt") {
            guard let time = CaptureTime(text: text) else {
                throw FormatError(.malformed, source: source, path: at + "capturedAt",
                                  message: "\"\(text)\" is not an RFC 3339 time with an offset (2026-11-20T09:41:07+01:00)")
            }
            row.capturedAt = time
        }
        return row
    }
}
