import Testing
@testable import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkTestSupport

/// The byte paths of `planmark validate`: rows parsed as views, numbers and strings written straight
/// into the report buffer, whole batches formatted without a `String` per row.
@Suite struct PreparedBytesTests {
    func number(_ value: Double) -> String {
        var out = ReportBuffer()
        out.appendNumber(value)
        return out.text
    }

    func csvField(_ text: String) -> String {
        var out = ReportBuffer()
        Array(text.utf8).withUnsafeBufferPointer { out.appendCSVField($0) }
        return out.text
    }

    func jsonString(_ text: String) -> String {
        var out = ReportBuffer()
        Array(text.utf8).withUnsafeBufferPointer { out.appendJSONString($0) }
        return out.text
    }

    // MARK: numbers

    @Test func shortDecimalsByHand() async {
        // Shortest round-trip texts, worked out by hand.
        let cases: [(Double, String)] = [
            (0.1, "0.1"), (-0.1, "-0.1"), (12.34, "12.34"), (12.3, "12.3"), (0.001, "0.001"), (-0.005, "-0.005"),
            (5842.78, "5842.78"), (0.25, "0.25"), (999999999999.5, "999999999999.5"), (123456789012.345, "123456789012.345"),
        ]
        for (value, text) in cases {
            var out = ReportBuffer()
            let written = out.appendShortDecimal(value)
            #expect(written, "\(value)")
            #expect(out.text == text, "\(value)")
        }
        // 17 significant digits, below 0.001, or 10^15 and over: not this path (nothing written).
        for value in [0.30000000000000004, 18742.034540531866, 0.0009, 1e-7, 1.5e15] {
            var out = ReportBuffer()
            let written = out.appendShortDecimal(value)
            #expect(!written, "\(value)")
            #expect(out.bytes.isEmpty)
        }
    }

    @Test func numbersMatchSwiftsDescription() async {
        // `appendNumber` must spell every value as `JSONNumber.text` (Swift's `description` for
        // non-integers): decimals of 1 to 15 significant digits at many scales, full doubles, values
        // near 0.001 and 10^15.
        var rng = SeededGenerator()
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...15, using: &rng)
            let mantissa = Double(Int64.random(in: 1...Int64(pow10(digits)), using: &rng))
            let scale = Int.random(in: 0...18, using: &rng)
            var value = mantissa / pow10(scale)
            if Bool.random(using: &rng) { value = -value }
            let full = Double.random(in: -20_000...20_000, using: &rng)
            let small = Double.random(in: 0.0009...0.0011, using: &rng)
            for v in [value, full, small, Double(bitPattern: 0x3F50_624D_D2F1_A9FC), 1e15 - 0.25] {
                let text = number(v)
                #expect(text == JSONNumber.text(v), "seed \(rng.seed): \(v)")
            }
        }
    }

    func pow10(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }

    // MARK: strings

    @Test func csvFieldsFromBytes() async {
        #expect(csvField("M1") == "M1")
        #expect(csvField("a,b") == "\"a,b\"")
        #expect(csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(csvField("two\rlines") == "\"two\rlines\"")
        #expect(csvField("é t") == "é t")
    }

    @Test func jsonStringsFromBytes() async {
        #expect(jsonString("M1") == #""M1""#)
        #expect(jsonString("a\"b\\c") == #""a\"b\\c""#)
        #expect(jsonString("t\tn\nr\r") == #""t\tn\nr\r""#)
        #expect(jsonString("\u{01}\u{1F}é\u{7F}") == "\"\\u0001\\u001fé\u{7F}\"")
    }

    // MARK: rows as views

    @Test func rowViews() async throws {
        let columns = try CSVColumns(header: ["id", "x", "y", "note"], source: "m.csv", line: 1)
        let parser = CSVMarkerParser(columns: columns, conversion: nil, source: "m.csv")
        let text = "A1, 12.5 ,40,hello\r\n\n  \n,1,2,\n\"q,\"\"1\"\"\",\"3\",x,\" n \"\n"
        var seen: [String] = []
        try Array(text.utf8).withUnsafeBufferPointer { chunk in
            try parser.forEachRow(chunk, firstLine: 2, firstRow: 1) { row in
                let id = String(decoding: row.id, as: UTF8.self)
                let note = String(decoding: row.note, as: UTF8.self)
                let position = row.position.map { "\($0.x) \($0.y)" } ?? "nil"
                seen.append("\(row.line) \(row.row) [\(id)] \(position) [\(note)]")
            }
        }
        // Line 2: CR dropped, spaces around numbers ignored; lines 3 and 4 blank (no row); line 5: an
        // empty id (its row number is the id); line 6: a quoted id with a comma and quotes, a quoted
        // number, a bad y, a quoted note kept with its inner spaces.
        #expect(seen == [
            "2 1 [A1] 12.5 40.0 [hello]",
            "5 2 [] 1.0 2.0 []",
            "6 3 [q,\"1\"] nil [ n ]",
        ])
        var rows: [MarkerRow] = []
        try Array(text.utf8).withUnsafeBufferPointer { try parser.parse($0, firstLine: 2, firstRow: 1, into: &rows) }
        #expect(rows.map(\.id) == ["A1", "2", "q,\"1\""])
        #expect(rows.map(\.note) == ["hello", nil, " n "])
    }

    @Test func rowViewErrorsNameTheLine() async throws {
        let columns = try CSVColumns(header: ["id", "x", "y"], source: "m.csv", line: 1)
        let parser = CSVMarkerParser(columns: columns, conversion: nil, source: "m.csv")
        func error(_ text: String) -> String {
            do {
                try Array(text.utf8).withUnsafeBufferPointer { try parser.forEachRow($0, firstLine: 2, firstRow: 1) { _ in } }
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        // An unterminated quote is reported before the field count.
        #expect(error("1,2,3\n\"a,b,c,d\n").contains("m.csv:3: unterminated quoted field"))
        #expect(error("1,2,3\n1,2,3,4\n").contains("m.csv:3: 4 fields, but the header names 3"))
        #expect(error("a\u{01},2,3\n").contains("m.csv:2:"))
    }

    // MARK: whole batches

    /// A batch through `BatchValidation.run` from a CSV file in memory, read in tiny blocks.
    func run(_ format: ValidationReportFormat, _ csv: String) throws -> String {
        let regions = [
            try Region(id: "R,1", coordinates: [[[PixelPoint(x: 0, y: 0), PixelPoint(x: 10, y: 0), PixelPoint(x: 10, y: 10), PixelPoint(x: 0, y: 10)]]]),
            try Region(id: "A", kind: .allowed, coordinates: [[[PixelPoint(x: 0, y: 0), PixelPoint(x: 20, y: 0), PixelPoint(x: 20, y: 20), PixelPoint(x: 0, y: 20)]]]),
        ]
        let batch = BatchValidation(validator: MarkerValidator(regions: regions, size: DrawingSize(width: 30, height: 30)), format: format)
        var reader = try MarkerFileReader(input: InputFile(bytes: Array(csv.utf8), source: "m.csv"), format: .csv, conversion: nil, blockSize: 7)
        var out: [UInt8] = []
        _ = try batch.run(&reader, write: { out += $0 })
        return String(decoding: out, as: UTF8.self)
    }

    @Test func csvBatchByHand() async throws {
        let csv = "id,x,y\nm1,5,5\n,10,2.50\n\"x\"\"y\",25,25\nm4,40,1\nm5,abc,1\n"
        #expect(try run(.csv, csv) == """
            id,x,y,valid,reason,regions
            m1,5,5,true,,"R,1:inside;A:inside"
            2,10,2.5,true,,"R,1:boundary;A:inside"
            "x""y",25,25,false,outside-allowed-area,
            m4,40,1,false,outside-drawing,
            m5,,,false,invalid-coordinate,

            """)
        #expect(try run(.jsonl, csv).split(separator: "\n").map(String.init) == [
            #"{"id":"m1","x":5,"y":5,"valid":true,"reason":null,"regions":[{"id":"R,1","kind":"room","location":"inside"},{"id":"A","kind":"allowed","location":"inside"}]}"#,
            #"{"id":"2","x":10,"y":2.5,"valid":true,"reason":null,"regions":[{"id":"R,1","kind":"room","location":"boundary"},{"id":"A","kind":"allowed","location":"inside"}]}"#,
            #"{"id":"x\"y","x":25,"y":25,"valid":false,"reason":"outside-allowed-area","regions":[]}"#,
            #"{"id":"m4","x":40,"y":1,"valid":false,"reason":"outside-drawing","regions":[]}"#,
            #"{"id":"m5","x":null,"y":null,"valid":false,"reason":"invalid-coordinate","regions":[]}"#,
        ])
        let json = try run(.json, csv)
        #expect(json.hasPrefix(#"{"markers":[{"id":"m1","#))
        #expect(json.hasSuffix(#"],"summary":{"total":5,"valid":2,"invalid":3,"byReason":{"invalid-coordinate":1,"outside-drawing":1,"outside-allowed-area":1,"outside-rooms":0}}}"# + "\n"))
        let text = try run(.text, csv)
        #expect(text.contains("5 markers: 2 valid, 3 invalid (invalid-coordinate 1, outside-drawing 1, outside-allowed-area 1)"))
        #expect(text.contains("x\"y"))
    }
}
