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
/// separate cores and written in order.
public struct ValidationReport: Sendable {
    /// The chosen format.
    public let format: ValidationReportFormat
    /// Region ids, kinds, JSON-quoted ids and CSV ids, indexed like the validator's regions.
    let regionIDs: [String]
    let regionKinds: [RegionKind]
    let quotedRegionIDs: [String]
    /// Each region's JSON entry up to its location: `{"id":"R1","kind":"room","location":"`.
    let regionEntryPrefixes: [[UInt8]]

    /// Creates a report for results against `regions` (the validator's list, in order).
    public init(format: ValidationReportFormat, regions: [Region]) {
        self.format = format
        regionIDs = regions.map(\.id)
        regionKinds = regions.map(\.kind)
        quotedRegionIDs = regions.map { JSONString.quoted($0.id) }
        regionEntryPrefixes = regions.map { region in
            Array("{\"id\":\(JSONString.quoted(region.id)),\"kind\":\"\(region.kind.rawValue)\",\"location\":\"".utf8)
        }
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
        switch format {
        case .jsonl:
            jsonObject(row, reason: reason, hits: hits, into: &out)
            out.append("\n")
        case .json:
            if !isFirst { out.append(",") }
            jsonObject(row, reason: reason, hits: hits, into: &out)
        case .csv:
            out.append(csvField(row.id))
            out.append(",")
            if let p = row.position {
                out.appendNumber(p.x); out.append(","); out.appendNumber(p.y)
            } else {
                out.append(",")
            }
            out.append(reason == nil ? ",true," : ",false,")
            if let reason { out.append(reason.rawValue) }
            out.append(",")
            var regions = ""
            for (k, hit) in hits.enumerated() {
                if k > 0 { regions += ";" }
                regions += regionIDs[hit.regionIndex]; regions += ":"; regions += hit.location.rawValue
            }
            out.append(csvField(regions))
            out.append("\n")
        case .text:
            guard let reason else { return }
            let line = row.line > 0 ? String(row.line) : "-"
            let x = row.position.map { JSONNumber.text($0.x) } ?? "-"
            let y = row.position.map { JSONNumber.text($0.y) } ?? "-"
            out.append(pad(line, 7) + pad(row.id, 12) + pad(x, 12) + pad(y, 12) + pad(reason.rawValue, 22))
            out.append(hits.isEmpty ? "-" : hits.map { "\(regionIDs[$0.regionIndex]) (\($0.location.rawValue))" }.joined(separator: ", "))
            out.append("\n")
        }
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

    func jsonObject(_ row: MarkerRow, reason: InvalidReason?, hits: [RegionHit], into out: inout ReportBuffer) {
        out.append("{\"id\":")
        out.appendJSONString(row.id)
        if let p = row.position {
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
        for (k, hit) in hits.enumerated() {
            if k > 0 { out.append(",") }
            out.append(bytes: regionEntryPrefixes[hit.regionIndex])
            out.append(Self.text(hit.location))
            out.append("\"}")
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

    func csvField(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) else { return text }
        return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
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
