import PlanMarkGeometry

/// The report formats of `planmark validate`.
public enum ValidationReportFormat: String, CaseIterable, Sendable {
    /// A readable table of the invalid markers and the summary.
    case text
    /// `{"markers":[...],"summary":{...}}`.
    case json
    /// One JSON object a marker, in input order.
    case jsonl
    /// `id,x,y,valid,reason,regions`, regions as `id:location` joined by `;`.
    case csv
}

/// Formats validation results; every piece is plain text, so parts of a batch can be formatted on
/// separate cores and written in order. Written by hand, not as `Codable` shapes (`JSONDocument`): it is the measured
/// hot path of `planmark validate` (a million markers, `Benchmarks/validate`).
public struct ValidationReport: Sendable {
    /// The chosen format.
    public let format: ValidationReportFormat
    /// Region ids, kinds, JSON-quoted ids and CSV ids, indexed like the validator's regions.
    let regionIDs: [String]
    let regionKinds: [RegionKind]
    let quotedRegionIDs: [String]
    /// Prepared bytes, one flat array (so the hot loop reads them without reference counting):
    /// piece `k` is `pieces[pieceStarts[k]..<pieceStarts[k + 1]]`. Pieces `2i` and `2i + 1` are region
    /// i's CSV labels `ID:inside` and `ID:boundary` (quotes doubled); piece `2n + i` is its JSON entry
    /// up to its location, `{"id":"R1","kind":"room","location":"`.
    let pieces: [UInt8]
    let pieceStarts: [Int]
    /// Whether region i's id needs the CSV regions field quoted (a comma, quote or line break).
    let csvLabelNeedsQuotes: [Bool]
    /// The CSV labels again, in memory the hot loop reads through pointers.
    let csvLabels: CSVLabelTable

    /// Creates a report for results against `regions` (the validator's list, in order).
    public init(format: ValidationReportFormat, regions: [Region]) {
        self.format = format
        regionIDs = regions.map(\.id)
        regionKinds = regions.map(\.kind)
        quotedRegionIDs = regions.map { JSONString.quoted($0.id) }
        csvLabelNeedsQuotes = regions.map { region in
            region.id.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 })
        }
        var pieces: [UInt8] = []
        var pieceStarts: [Int] = [0]
        for region in regions {
            let id = region.id.replacingAll("\"", with: "\"\"")
            pieces += Array("\(id):inside".utf8)
            pieceStarts.append(pieces.count)
            pieces += Array("\(id):boundary".utf8)
            pieceStarts.append(pieces.count)
        }
        for region in regions {
            pieces += Array("{\"id\":\(JSONString.quoted(region.id)),\"kind\":\"\(region.kind.rawValue)\",\"location\":\"".utf8)
            pieceStarts.append(pieces.count)
        }
        self.pieces = pieces
        self.pieceStarts = pieceStarts
        csvLabels = CSVLabelTable(pieces: pieces, starts: pieceStarts, needsQuotes: csvLabelNeedsQuotes)
    }

    /// One marker's CSV line from a parsed row, written into `sink`: the same bytes as
    /// `entry(id:defaultID:...)` with the `csv` format. A coordinate whose text the row kept
    /// (`CSVRowView.xText`, `yText`: what `appendNumber` would write) is copied, the labels are
    /// copied from `labels`, and room for the whole line is made once.
    /// - Complexity: O(length of the line).
    @inline(__always)
    func csvEntry(
        _ row: CSVRowView, reason: InvalidReason?, hits: UnsafeBufferPointer<RegionHit>,
        labels: CSVLabelTable, into sink: inout ByteSink
    ) {
        let id = row.id
        sink.reserve(2 * id.count + 2 + 24 + 2 * 32 + 32 + hits.count * (labels.maxLength + 1) + 4)
        if id.isEmpty {
            sink.putInteger(row.row)
        } else {
            var needsQuotes = false
            for byte in id where byte == 44 || byte == 34 || byte == 10 || byte == 13 {
                needsQuotes = true
                break
            }
            if needsQuotes {
                sink.put(34)
                for byte in id {
                    sink.put(byte)
                    if byte == 34 { sink.put(34) }
                }
                sink.put(34)
            } else {
                sink.put(id)
            }
        }
        if let p = row.position {
            sink.put(44)
            if row.xText.isEmpty { sink.putNumber(p.x) } else { sink.put(row.xText) }
            sink.put(44)
            if row.yText.isEmpty { sink.putNumber(p.y) } else { sink.put(row.yText) }
        } else {
            sink.put(",,")
        }
        if let reason {
            switch reason {
            case .invalidCoordinate: sink.put(",false,invalid-coordinate,")
            case .outsideDrawing: sink.put(",false,outside-drawing,")
            case .outsideAllowedArea: sink.put(",false,outside-allowed-area,")
            case .outsideRooms: sink.put(",false,outside-rooms,")
            }
        } else {
            sink.put(",true,,")
        }
        var quote = false
        for hit in hits where labels.needsQuotes[hit.regionIndex] { quote = true; break }
        if quote { sink.put(34) }
        for k in 0..<hits.count {
            if k > 0 { sink.put(59) }
            let hit = hits[k]
            let piece = 2 * hit.regionIndex + (hit.location == .boundary ? 1 : 0)
            let start = labels.starts[piece]
            sink.put(UnsafeBufferPointer(start: labels.bytes + start, count: labels.starts[piece + 1] - start))
        }
        if quote { sink.put(34) }
        sink.put(10)
    }

    /// Text before the first marker.
    public func header() -> String {
        switch format {
        case .text: return ""
        case .json: return "{\"markers\":["
        case .jsonl: return ""
        case .csv: return "id,x,y,valid,reason,regions\n"
        }
    }

    /// One marker's entry. `isFirst` matters only for `json` (the separating comma).
    public func entry(_ row: MarkerRow, reason: InvalidReason?, hits: [RegionHit], isFirst: Bool, into out: inout ReportBuffer) {
        if format == .text {
            textEntry(row, reason: reason, hits: hits, into: &out)
            return
        }
        var id = row.id
        id.withUTF8 { id in
            entry(id: id, defaultID: 0, line: row.line, position: row.position, reason: reason, hits: hits, isFirst: isFirst, into: &out)
        }
    }

    /// One marker's entry from the id's bytes, formatted straight into `out` (no `String` made, but
    /// for the `text` report's invalid markers). `id` is checked UTF-8 text; when it is empty and
    /// `defaultID` is positive, the id is `defaultID` (a CSV row's number). The same bytes as
    /// `entry(_:reason:hits:isFirst:into:)` with a `MarkerRow` of that id.
    /// - Complexity: O(length of the entry).
    public func entry(
        id: UnsafeBufferPointer<UInt8>, defaultID: Int, line: Int, position: PixelPoint?,
        reason: InvalidReason?, hits: [RegionHit], isFirst: Bool, into out: inout ReportBuffer
    ) {
        switch format {
        case .jsonl:
            jsonObject(id: id, defaultID: defaultID, position: position, reason: reason, hits: hits, into: &out)
            out.append("\n")
        case .json:
            if !isFirst { out.append(",") }
            jsonObject(id: id, defaultID: defaultID, position: position, reason: reason, hits: hits, into: &out)
        case .csv:
            if id.isEmpty && defaultID > 0 {
                out.appendInteger(Int64(defaultID))
            } else {
                out.appendCSVField(id)
            }
            if let p = position {
                out.append(",")
                out.appendNumber(p.x)
                out.append(",")
                out.appendNumber(p.y)
            } else {
                out.append(",,")
            }
            if let reason {
                out.append(",false,")
                out.append(Self.text(reason))
                out.append(",")
            } else {
                out.append(",true,,")
            }
            // The regions field is quoted as a whole when any of its ids needs quoting; the prepared
            // labels already have their quotes doubled.
            var quote = false
            for hit in hits where csvLabelNeedsQuotes[hit.regionIndex] { quote = true; break }
            if quote { out.append("\"") }
            pieces.withUnsafeBufferPointer { pieces in
                pieceStarts.withUnsafeBufferPointer { starts in
                    for (k, hit) in hits.enumerated() {
                        if k > 0 { out.append(";") }
                        let piece = 2 * hit.regionIndex + (hit.location == .boundary ? 1 : 0)
                        out.append(bytes: UnsafeBufferPointer(rebasing: pieces[starts[piece]..<starts[piece + 1]]))
                    }
                }
            }
            if quote { out.append("\"") }
            out.append("\n")
        case .text:
            guard reason != nil else { return }
            let text = id.isEmpty && defaultID > 0 ? String(defaultID) : String(decoding: id, as: UTF8.self)
            textEntry(MarkerRow(id: text, line: line, position: position), reason: reason, hits: hits, into: &out)
        }
    }

    func textEntry(_ row: MarkerRow, reason: InvalidReason?, hits: [RegionHit], into out: inout ReportBuffer) {
        guard let reason else { return }
        let line = row.line > 0 ? String(row.line) : "-"
        let x = row.position.map { JSONNumber.text($0.x) } ?? "-"
        let y = row.position.map { JSONNumber.text($0.y) } ?? "-"
        out.append(pad(line, 7) + pad(row.id, 12) + pad(x, 12) + pad(y, 12) + pad(reason.rawValue, 22))
        out.append(hits.isEmpty ? "-" : hits.map { "\(regionIDs[$0.regionIndex]) (\($0.location.rawValue))" }.joined(separator: ", "))
        out.append("\n")
    }

    /// One marker's entry as a string (for callers that are not streaming).
    public func entry(_ row: MarkerRow, reason: InvalidReason?, hits: [RegionHit], isFirst: Bool) -> String {
        var buffer = ReportBuffer()
        entry(row, reason: reason, hits: hits, isFirst: isFirst, into: &buffer)
        return buffer.text
    }

    /// The text report's table heading, written before the first invalid marker.
    public func textTableHeading() -> String {
        pad("line", 7) + pad("id", 12) + pad("x", 12) + pad("y", 12) + pad("reason", 22) + "regions\n"
    }

    /// Text after the last marker.
    public func footer(_ summary: ValidationSummary) -> String {
        switch format {
        case .jsonl, .csv: return ""
        case .json:
            var out = "],\"summary\":{\"total\":\(summary.total),\"valid\":\(summary.valid),\"invalid\":\(summary.invalid),\"byReason\":{"
            out += InvalidReason.allCases.map { "\"\($0.rawValue)\":\(summary.byReason[$0] ?? 0)" }.joined(separator: ",")
            out += "}}}\n"
            return out
        case .text:
            var out = summary.invalid == 0 ? "No invalid markers.\n" : "\n"
            out += "\(summary.total) markers: \(summary.valid) valid, \(summary.invalid) invalid"
            let reasons = InvalidReason.allCases.compactMap { reason in
                summary.byReason[reason].map { "\(reason.rawValue) \($0)" }
            }
            if !reasons.isEmpty { out += " (" + reasons.joined(separator: ", ") + ")" }
            return out + "\n"
        }
    }

    func jsonObject(
        id: UnsafeBufferPointer<UInt8>, defaultID: Int, position: PixelPoint?, reason: InvalidReason?, hits: [RegionHit],
        into out: inout ReportBuffer
    ) {
        out.append("{\"id\":")
        if id.isEmpty && defaultID > 0 {
            out.append("\"")
            out.appendInteger(Int64(defaultID))
            out.append("\"")
        } else {
            out.appendJSONString(id)
        }
        if let p = position {
            out.append(",\"x\":"); out.appendNumber(p.x)
            out.append(",\"y\":"); out.appendNumber(p.y)
        } else {
            out.append(",\"x\":null,\"y\":null")
        }
        if let reason {
            out.append(",\"valid\":false,\"reason\":\"")
            out.append(Self.text(reason))
            out.append("\"")
        } else {
            out.append(",\"valid\":true,\"reason\":null")
        }
        out.append(",\"regions\":[")
        let prefixes = 2 * regionIDs.count
        pieces.withUnsafeBufferPointer { pieces in
            pieceStarts.withUnsafeBufferPointer { starts in
                for (k, hit) in hits.enumerated() {
                    if k > 0 { out.append(",") }
                    let piece = prefixes + hit.regionIndex
                    out.append(bytes: UnsafeBufferPointer(rebasing: pieces[starts[piece]..<starts[piece + 1]]))
                    out.append(Self.text(hit.location))
                    out.append("\"}")
                }
            }
        }
        out.append("]}")
    }

    /// A reason's name as static text (no string to count references to).
    static func text(_ reason: InvalidReason) -> StaticString {
        switch reason {
        case .invalidCoordinate: return "invalid-coordinate"
        case .outsideDrawing: return "outside-drawing"
        case .outsideAllowedArea: return "outside-allowed-area"
        case .outsideRooms: return "outside-rooms"
        }
    }

    /// A location's name as static text.
    static func text(_ location: PointLocation) -> StaticString {
        switch location {
        case .inside: return "inside"
        case .boundary: return "boundary"
        case .outside: return "outside"
        }
    }

    func pad(_ text: String, _ width: Int) -> String {
        text.count >= width - 1 ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

extension String {
    /// The string with every `target` replaced by `replacement`.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self {
            if character == target { out += replacement } else { out.append(character) }
        }
        return out
    }
}

/// The CSV labels `ID:inside`, `ID:boundary` of every region (quotes doubled) in memory of its own,
/// read through pointers; written once, read-only afterwards.
final class CSVLabelTable: @unchecked Sendable {
    /// Label k is `bytes[starts[k]..<starts[k + 1]]`; labels 2i and 2i + 1 are region i's.
    let bytes: UnsafeMutablePointer<UInt8>
    let starts: UnsafeMutablePointer<Int>
    /// Whether region i's id needs the CSV regions field quoted.
    let needsQuotes: UnsafeMutablePointer<Bool>
    /// The longest label.
    let maxLength: Int

    init(pieces: [UInt8], starts: [Int], needsQuotes: [Bool]) {
        let labelCount = needsQuotes.count * 2
        let end = starts[labelCount]
        bytes = .allocate(capacity: max(1, end))
        bytes.initialize(from: pieces, count: end)
        self.starts = .allocate(capacity: labelCount + 1)
        self.starts.initialize(from: starts, count: labelCount + 1)
        self.needsQuotes = .allocate(capacity: max(1, needsQuotes.count))
        self.needsQuotes.initialize(from: needsQuotes, count: needsQuotes.count)
        var longest = 0
        for k in 0..<labelCount { longest = max(longest, starts[k + 1] - starts[k]) }
        maxLength = longest
    }

    deinit {
        bytes.deallocate()
        starts.deallocate()
        needsQuotes.deallocate()
    }
}
