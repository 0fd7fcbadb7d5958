import Testing
@testable import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkTestSupport

/// The fast paths of `planmark validate --report csv`: Eisel-Lemire number parsing, CSV lines parsed
/// in one pass with their coordinate text kept when the report prints the same text, and lines
/// written through `ByteSink`. Every expected value comes from an independent source: the standard
/// library's `Double(String)` and `description`, a plain split of the line, or the row-by-row writer.
@Suite struct FastPathTests {
    static func parse(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { DecimalParser.parse($0) }
    }

    // MARK: numbers

    /// 16 to 19 significant digits with 1 to 40 fraction digits (Eisel-Lemire), against `Double(String)`.
    @Test func eiselLemireMatchesStandardLibrary() async {
        var rng = SeededGenerator()
        for _ in 0..<40_000 {
            let digits = Int.random(in: 16...19, using: &rng)
            var text = String(UInt64.random(in: 1_000_000_000_000_000_000...9_999_999_999_999_999_999, using: &rng)).prefix(digits)
            let point = Int.random(in: 0..<digits, using: &rng)
            var mantissa = String(text)
            mantissa.insert(".", at: mantissa.index(mantissa.startIndex, offsetBy: point))
            if Int.random(in: 0..<4, using: &rng) == 0 {
                mantissa = "0." + String(repeating: "0", count: Int.random(in: 0...20, using: &rng)) + text
            }
            if Bool.random(using: &rng) { mantissa = "-" + mantissa }
            text = Substring(mantissa)
            let expected = Double(String(text))
            #expect(Self.parse(String(text))?.bitPattern == expected?.bitPattern, "\(text) (seed \(rng.seed))")
        }
    }

    /// The shortest texts of random doubles (what a generator writes: 17 digits at most) and their
    /// neighbours one unit in the last digit away, which sit near halfway points.
    @Test func shortestTextsAndNeighbours() async {
        var rng = SeededGenerator()
        for _ in 0..<20_000 {
            let value = Double.random(in: -20_000...20_000, using: &rng)
            let text = value.description
            #expect(Self.parse(text)?.bitPattern == value.bitPattern, "\(text) (seed \(rng.seed))")
            var bytes = Array(text.utf8)
            guard let last = bytes.lastIndex(where: { $0 >= 48 && $0 <= 57 }), !text.contains("e") else { continue }
            for delta in [-1, 1] {
                let digit = Int(bytes[last]) - 48 + delta
                guard (0...9).contains(digit) else { continue }
                bytes[last] = UInt8(48 + digit)
                let neighbour = String(decoding: bytes, as: UTF8.self)
                #expect(Self.parse(neighbour)?.bitPattern == Double(neighbour)?.bitPattern, "\(neighbour) (seed \(rng.seed))")
            }
        }
        // Halfway cases worked out by hand: 2^53 + 1 and 2^53 + 3 lie halfway between doubles and round
        // to even; the 19-digit form of 0.1's neighbours.
        for text in ["9007199254740993", "9007199254740995", "0.1000000000000000055511151231257827",
                     "0.1000000000000000055", "0.09999999999999999167", "2.2250738585072014", "1.7976931348623157"] {
            #expect(Self.parse(text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    /// Values `appendNumber` writes without the short-decimal path, against `JSONNumber.text`:
    /// 17-digit values (through `Double.write(to:)`), exponents, and `null` for what JSON cannot spell.
    @Test func numbersOutsideTheShortPath() async {
        for value in [18742.034540531866, 0.30000000000000004, 1e-7, -2.2250738585072014e-308, 1e300,
                      -1.7976931348623157e308, 4.9e-324, .infinity, -.infinity, .nan] {
            var out = ReportBuffer()
            out.appendNumber(value)
            #expect(out.text == JSONNumber.text(value), "\(value)")
        }
        var out = ReportBuffer()
        out.appendNumber(.infinity)
        #expect(out.text == "null")
    }

    // MARK: CSV lines

    /// Coordinate texts of many forms, alone on a line with an id: the view's position is
    /// `Double(String)` of the trimmed (and unquoted) text; a kept text is the field's own text and
    /// exactly what `appendNumber` writes for the value.
    @Test func coordinateTexts() async throws {
        var rng = SeededGenerator()
        var fields: [String] = ["0", "-0", "00", "0.0", "0.5", "-0.5", "0.001", "0.0009", "0.00100", "12.5", "12.50",
                                "9867", "5842.78", "+3", ".5", "5.", "1e3", " 7 ", "\"8\"", "007", "-12.25",
                                "123456789012345", "1234567890123456", "0.123456789012345", "0.00123456789012345",
                                "18742.034540531866", "99999999999999999999", "1.5e-7", "abc", "", "-", "1.", "0x10"]
        for _ in 0..<3000 {
            let digits = Int.random(in: 1...18, using: &rng)
            var text = String(UInt64.random(in: 0..<1_000_000_000_000_000_000, using: &rng)).prefix(digits)
            if Bool.random(using: &rng) {
                let point = Int.random(in: 1...text.count, using: &rng)
                var t = String(text)
                t.insert(".", at: t.index(t.startIndex, offsetBy: point))
                text = Substring(t)
                if text.last == "." { text += "0" }
            }
            if Bool.random(using: &rng) { text = "-" + text }
            fields.append(String(text))
            fields.append(Double.random(in: -20_000...20_000, using: &rng).description)
        }
        let columns = try CSVColumns(header: ["id", "x", "y"], source: "m.csv", line: 1)
        let parser = CSVMarkerParser(columns: columns, conversion: nil, source: "m.csv")
        var csv = ""
        for (k, field) in fields.enumerated() { csv += "m\(k),\(field),\(fields[(k + 7) % fields.count])\n" }
        var kept = 0
        var seen = 0
        try Array(csv.utf8).withUnsafeBufferPointer { chunk in
            try parser.forEachRow(chunk, firstLine: 2, firstRow: 1) { row in
                let k = row.row - 1
                seen += 1
                #expect(String(decoding: row.id, as: UTF8.self) == "m\(k)")
                func reference(_ field: String) -> Double? {
                    var text = field.filter { $0 != " " }
                    if text.count >= 2 && text.first == "\"" && text.last == "\"" { text = String(text.dropFirst().dropLast()) }
                    guard !text.isEmpty, !text.contains("x"), !text.contains("n"), !text.contains("i") else { return nil }
                    return Double(text)
                }
                let x = reference(fields[k]), y = reference(fields[(k + 7) % fields.count])
                if let x, let y {
                    #expect(row.position?.x.bitPattern == x.bitPattern, "\(fields[k])")
                    #expect(row.position?.y.bitPattern == y.bitPattern)
                } else {
                    #expect(row.position == nil, "\(fields[k])")
                }
                for (text, value) in [(row.xText, row.position?.x), (row.yText, row.position?.y)] where !text.isEmpty {
                    kept += 1
                    var out = ReportBuffer()
                    out.appendNumber(value!)
                    #expect(String(decoding: text, as: UTF8.self) == out.text)
                }
            }
        }
        #expect(seen == fields.count)
        #expect(kept > fields.count / 2)  // the copy path is taken for most short decimals
        // The forms the benchmark's generator writes are kept.
        try Array("a,9867,12.5\nb,5842.78,-0.5\n".utf8).withUnsafeBufferPointer { chunk in
            try parser.forEachRow(chunk, firstLine: 2, firstRow: 1) { row in
                #expect(!row.xText.isEmpty && !row.yText.isEmpty)
            }
        }
    }

    /// Lines the fast path must leave to the general one give the same rows as before: quotes,
    /// spaces, CRLF, blank lines, empty fields, non-ASCII and control bytes, too many or too few fields.
    @Test func linesForTheGeneralPath() async throws {
        let columns = try CSVColumns(header: ["id", "x", "y", "note"], source: "m.csv", line: 1)
        let parser = CSVMarkerParser(columns: columns, conversion: nil, source: "m.csv")
        let text = "p1,1,2,n\r\n\"q\",3,4,\nr\u{09}1,5,6,é\n\n,7,8,z\ns, 9,10,\nt,11,12\nu,13,14,a,b\n"
        var seen: [String] = []
        var failure = ""
        do {
            try Array(text.utf8).withUnsafeBufferPointer { chunk in
                try parser.forEachRow(chunk, firstLine: 2, firstRow: 1) { row in
                    let position = row.position.map { "\($0.x) \($0.y)" } ?? "nil"
                    seen.append("\(row.line) \(row.row) [\(String(decoding: row.id, as: UTF8.self))] \(position) [\(String(decoding: row.note, as: UTF8.self))]")
                }
            }
        } catch {
            failure = "\(error)"
        }
        #expect(seen == [
            "2 1 [p1] 1.0 2.0 [n]",
            "3 2 [q] 3.0 4.0 []",
            "4 3 [r\t1] 5.0 6.0 [é]",
            "6 4 [] 7.0 8.0 [z]",
            "7 5 [s] 9.0 10.0 []",
            "8 6 [t] 11.0 12.0 []",
        ])
        #expect(failure.contains("m.csv:9: 5 fields, but the header names 4"))
    }

    // MARK: whole reports

    /// The `csv` report written through `ByteSink` from row views against the row-by-row writer
    /// (`ValidationReport.entry` with `MarkerRow`s and `appendNumber`) on seeded random markers:
    /// coordinates of every form, ids that need quoting, region ids that need quoting, markers on walls.
    @Test func csvReportMatchesRowByRowWriter() async throws {
        var rng = SeededGenerator()
        func p(_ x: Double, _ y: Double) -> PixelPoint { PixelPoint(x: x, y: y) }
        let regions = [
            try Region(id: "R,1", coordinates: [[[p(0, 0), p(10, 0), p(10, 10), p(0, 10)]]]),
            try Region(id: "R\"2", coordinates: [[[p(10, 0), p(20, 0), p(20, 10), p(10, 10)]]]),
            try Region(id: "L", coordinates: [[[p(0, 10), p(20, 10), p(20, 20), p(10, 20), p(10, 15), p(0, 15)]]]),
            try Region(id: "A", kind: .allowed, coordinates: [[[p(0, 0), p(25, 0), p(25, 25), p(0, 25)], [p(2, 2), p(4, 2), p(4, 4), p(2, 4)]]]),
        ]
        let validator = MarkerValidator(regions: regions, size: DrawingSize(width: 30, height: 30))
        var csv = "id,x,y\n"
        for k in 0..<5000 {
            let id: String
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: id = ""
            case 1: id = "\"q,\(k)\""
            case 2: id = "s \(k)"
            default: id = "m\(k)"
            }
            func coordinate() -> String {
                switch Int.random(in: 0..<8, using: &rng) {
                case 0: return String(Int.random(in: -2...32, using: &rng))
                case 1: return String(Double(Int.random(in: -4...64, using: &rng)) / 2)
                case 2: return String(Double(Int.random(in: -400...3200, using: &rng)) / 100)
                case 3: return String(Int.random(in: 0...25, using: &rng)) + ".50"
                case 4: return "+" + String(Int.random(in: 0...25, using: &rng))
                case 5: return String(Double.random(in: -1...31, using: &rng))
                case 6: return Bool.random(using: &rng) ? "1e1" : "x"
                default: return String(Double(Int.random(in: 0...25, using: &rng)) + 1e-9)
                }
            }
            csv += "\(id),\(coordinate()),\(coordinate())\(Int.random(in: 0..<50, using: &rng) == 0 ? "\r" : "")\n"
        }
        let batch = BatchValidation(validator: validator, format: .csv)
        var reader = try MarkerFileReader(input: InputFile(bytes: Array(csv.utf8), source: "m.csv"), format: .csv, conversion: nil, blockSize: 4096)
        var out: [UInt8] = []
        _ = try batch.run(&reader, write: { out += $0 })

        var rowsReader = try MarkerFileReader(input: InputFile(bytes: Array(csv.utf8), source: "m.csv"), format: .csv, conversion: nil)
        let rows = try rowsReader.readAll()
        let report = ValidationReport(format: .csv, regions: regions)
        var expected = report.header()
        for row in rows {
            var hits: [RegionHit] = []
            let reason = row.position.map { validator.validate($0, hits: &hits) } ?? .invalidCoordinate
            expected += report.entry(row, reason: reason, hits: hits, isFirst: false)
        }
        #expect(rows.count == 5000)
        let got = String(decoding: out, as: UTF8.self)
        #expect(got == expected, "seed \(rng.seed)")
        if got != expected {
            let a = got.split(separator: "\n"), b = expected.split(separator: "\n")
            if let k = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset { Issue.record("line \(k): \(a[k]) != \(b[k])") }
        }
    }
}
