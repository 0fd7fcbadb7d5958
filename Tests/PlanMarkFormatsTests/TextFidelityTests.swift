import Testing
@testable import PlanMarkFormats
import PlanMarkGeometry

/// The bytes of `escaped`, where `\n` is a line feed and `\xHH` any byte (so tests can spell invalid UTF-8).
func bytes(_ escaped: String) -> [UInt8] {
    let utf8 = Array(escaped.utf8)
    var out: [UInt8] = []
    var i = 0
    while i < utf8.count {
        if utf8[i] == 92, i + 1 < utf8.count, utf8[i + 1] == UInt8(ascii: "n") {
            out.append(10)
            i += 2
        } else if utf8[i] == 92, i + 3 < utf8.count, utf8[i + 1] == UInt8(ascii: "x"),
                  let byte = UInt8(String(decoding: utf8[(i + 2)...(i + 3)], as: UTF8.self), radix: 16) {
            out.append(byte)
            i += 4
        } else {
            out.append(utf8[i])
            i += 1
        }
    }
    return out
}

/// Reads CSV `bytes` from memory as `m.csv`.
private func csvRows(_ bytes: [UInt8], blockSize: Int = MarkerFileReader.blockSize) throws(FormatError) -> [MarkerRow] {
    var reader = try MarkerFileReader(input: InputFile(bytes: bytes, source: "m.csv"), format: .csv, conversion: nil, blockSize: blockSize)
    return try reader.readAll()
}

private func csvRows(_ text: String) throws(FormatError) -> [MarkerRow] { try csvRows(Array(text.utf8)) }

/// The error of reading `bytes` as a markers CSV file, nil when it is accepted.
private func csvError(_ bytes: [UInt8]) -> FormatError? {
    do { _ = try csvRows(bytes); return nil } catch { return error }
}

private func geoJSONRows(_ text: String) throws(FormatError) -> [MarkerRow] {
    var reader = try MarkerFileReader(input: InputFile(bytes: Array(text.utf8), source: "m.geojson"), format: .geojson, conversion: nil)
    return try reader.readAll()
}

private func regions(_ bytes: [UInt8]) throws(FormatError) -> [Region] {
    try RegionsFile.parse(bytes, source: "plan.geojson")
}

private let square = #"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}"#

/// A regions file whose only feature has `head` (members before `geometry`, with a trailing comma).
private func regionsFile(_ head: String) -> String {
    #"{"type":"FeatureCollection","features":[{"type":"Feature",\#(head)"geometry":\#(square)}]}"#
}

/// A markers GeoJSON file whose only feature has `head` before its geometry.
private func pointsFile(_ head: String) -> String {
    #"{"type":"FeatureCollection","features":[{"type":"Feature",\#(head)"geometry":{"type":"Point","coordinates":[1,2]}}]}"#
}

/// Exactly what was read is what is kept, or it is refused with where and why.
@Suite struct TextFidelityTests {
    // MARK: CSV

    /// Invalid UTF-8 in a text field or the header: refused with the line and the field, never U+FFFD.
    @Test(arguments: [
        (#"id,x,y,note\nA,1,2,caf\xE9\n"#, "m.csv:2: invalid UTF-8 in field \"note\""),
        (#"id,x,y,author\nA,1,2,"\xC3\x28"\n"#, "m.csv:2: invalid UTF-8 in field \"author\""),
        (#"id,x,y\n\n"\xC0\xAF",1,2\n"#, "m.csv:3: invalid UTF-8 in field \"id\""),
        (#"id,x,y\nA\xED\xA0\x80,1,2\n"#, "m.csv:2: invalid UTF-8 in field \"id\""),
        (#"id,x,y,n\xFFote\n"#, "m.csv:1: invalid UTF-8 in the header"),
        (#"id,x,y,note\nA,1,2,a\x00b\n"#, "m.csv:2: NUL character in field \"note\""),
        (#"id,x,y,author\nA,1,2,\x00\n"#, "m.csv:2: NUL character in field \"author\""),
        (#"x,y,id\n1,2,"A\x00"\n"#, "m.csv:2: NUL character in field \"id\""),
        (#"id,x,y\nA\x07,1,2\n"#, "m.csv:2: control character U+0007 in field \"id\""),
        (#"id,x,y\nA,1,2\nB\x7F,1,2\n"#, "m.csv:3: control character U+007F in field \"id\""),
        (#"id,x,y\n"A\x0DB",1,2\n"#, "m.csv:2: control character U+000D in field \"id\""),
        (#"id,x\x00,y\n"#, "m.csv:1: NUL character in the header"),
    ])
    func csvTextRefused(_ escaped: String, _ message: String) {
        let error = csvError(bytes(escaped))
        #expect(error?.description == message)
        #expect(error?.kind == .malformed)
        #expect(error?.problem != nil)
    }

    /// The same refusal deep in a file read in many small blocks names the right line.
    @Test func csvTextRefusedAcrossBlocks() async {
        var bytes = Array("id,x,y,note\n".utf8)
        for k in 0..<500 { bytes += Array("m\(k),\(k),1,fine\n".utf8) }
        bytes += PlanMarkFormatsTests.bytes(#"bad,1,1,\xFF\n"#)
        for k in 0..<10 { bytes += PlanMarkFormatsTests.bytes(#"n\#(k),1,1,\x00\n"#) }
        for blockSize in [MarkerFileReader.blockSize, 64, 5] {
            do {
                _ = try csvRows(bytes, blockSize: blockSize)
                Issue.record("accepted with block size \(blockSize)")
            } catch {
                #expect(error.description == "m.csv:502: invalid UTF-8 in field \"note\"", "block size \(blockSize)")
                #expect(error.problem == .invalidUTF8)
            }
        }
    }

    /// Tabs in ids and notes, and any valid UTF-8, are kept.
    @Test func csvKeepsTabsAndUnicode() async throws {
        let got = try csvRows("id,x,y,note,author\nA\tB,1,2,\"col\t1, \"\"q\"\"\",Zoë 😀\n")
        #expect(got == [MarkerRow(id: "A\tB", line: 2, position: PixelPoint(x: 1, y: 2), note: "col\t1, \"q\"", author: "Zoë 😀", ref: "A\tB")])
    }

    /// Ids are never trimmed, renumbered or reformatted: an unquoted field byte for byte, a quoted
    /// one between its quotes; only an empty id takes the row number.
    @Test func csvIDsAreExact() async throws {
        let got = try csvRows("x, y , id,note\n 1 , 2 ,  A  , n \n3,4, \" B \" ,\"\"\n5,6,,\n7,8,\"\",x\n9,10,007,\n11,12,1.50,\n13,14,1e2,\n")
        #expect(got.map(\.id) == ["  A  ", " B ", "3", "4", "007", "1.50", "1e2"])
        #expect(got.map(\.position) == [PixelPoint(x: 1, y: 2), PixelPoint(x: 3, y: 4), PixelPoint(x: 5, y: 6),
                                         PixelPoint(x: 7, y: 8), PixelPoint(x: 9, y: 10), PixelPoint(x: 11, y: 12),
                                         PixelPoint(x: 13, y: 14)])
        #expect(got.map(\.note) == [" n ", nil, nil, "x", nil, nil, nil])
    }

    /// Coordinates are decimal only: anything else is `invalid-coordinate` (a nil position), the
    /// batch goes on. `.5`, `5.` and `+3` stay accepted, as they always were.
    @Test(arguments: [
        ("12.5", 12.5), (".5", 0.5), ("5.", 5), ("+3", 3), ("-.5e-1", -0.05), ("1e3", 1000), ("2.5E-3", 0.0025),
        (" 7 ", 7), ("\"8\"", 8),
        ("0x1c2", nil), ("0x1p3", nil), ("inf", nil), ("-inf", nil), ("nan", nil), ("infinity", nil),
        ("Infinity", nil), ("1_000", nil), ("1e400", nil), ("1,5", nil), ("", nil), ("١", nil),
    ] as [(String, Double?)])
    func csvCoordinates(_ text: String, _ expected: Double?) async throws {
        let field = text.contains(",") ? "\"\(text)\"" : text
        let got = try csvRows("id,x,y\nA,\(field),1\nB,1,1\n")
        #expect(got.count == 2)
        #expect(got.first?.position?.x == expected)
        #expect(got.first?.position == expected.map { PixelPoint(x: $0, y: 1) })
        #expect(got.last?.position == PixelPoint(x: 1, y: 1))
    }

    // MARK: JSON

    /// Invalid UTF-8 in JSON strings or keys: refused, naming the JSON path.
    @Test func jsonInvalidUTF8() async {
        let name = bytes(regionsFile(#""id":"A","properties":{"name":"caf\xE9"},"#))
        do {
            _ = try regions(name)
            Issue.record("accepted")
        } catch {
            #expect(error.description == "plan.geojson: $.features[0].properties.name: invalid UTF-8")
            #expect(error.problem == .invalidUTF8 && error.kind == .malformed)
        }
        let key = bytes(#"{"a":[{"\xC3\x28":1}]}"#)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(key) }
        do {
            _ = try JSONParser.parse(key)
        } catch {
            #expect(error.path == "$.a[0]" && error.message == "invalid UTF-8 in a key" && error.line == 1)
        }
        // Encoded surrogates, overlong forms and truncated sequences are invalid UTF-8 too, and a
        // broken byte next to an escape stays broken.
        for bad in [#"\xED\xA0\x80"#, #"\xC0\xAF"#, #"\xE6\x97"#, #"\xF4\x90\x80\x80"#, #"\xC3\u00e9"#] {
            do {
                _ = try JSONParser.parse(bytes(#"{"k":[""# + bad + #""]}"#))
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.path == "$.k[0]" && error.problem == .invalidUTF8, "\(bad)")
            }
        }
    }

    /// `\u` escapes: a lone surrogate or NUL is refused with the path; pairs and other escapes decode.
    @Test(arguments: [
        (#"["\ud800"]"#, "$[0]", TextProblem.loneSurrogate(0xD800), "lone surrogate \\uD800"),
        (#"["a\udc00b"]"#, "$[0]", .loneSurrogate(0xDC00), "lone surrogate \\uDC00"),
        (#"["\ud800\u0041"]"#, "$[0]", .loneSurrogate(0xD800), "lone surrogate \\uD800"),
        (#"["\ud800\ud800"]"#, "$[0]", .loneSurrogate(0xD800), "lone surrogate \\uD800"),
        (#"{"note":"\uDBFFx"}"#, "$.note", .loneSurrogate(0xDBFF), "lone surrogate \\uDBFF"),
        (#"{"note":"a\u0000b"}"#, "$.note", .nulCharacter, "NUL character"),
        (#"{"a b":{"c\u0000":1}}"#, #"$["a b"]"#, .nulCharacter, "NUL character in a key"),
    ])
    func jsonEscapesRefused(_ text: String, _ path: String, _ problem: TextProblem, _ message: String) {
        do {
            _ = try JSONParser.parse(Array(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.path == path)
            #expect(error.problem == problem)
            #expect(error.message == message)
        }
    }

    /// Bytes outside strings that are not JSON are named by value, never copied into the message.
    @Test(arguments: [(#"[1,\x00]"#, "unexpected character byte 0x00"), (#"\xFF"#, "unexpected character byte 0xFF"),
                      (#"{"a"\x07"#, "expected ':', found byte 0x07"), (#"[1 \xC3\xA9]"#, "expected ']', found byte 0xC3")])
    func jsonStrayBytesNamed(_ escaped: String, _ message: String) async {
        do {
            _ = try JSONParser.parse(bytes(escaped))
            Issue.record("accepted")
        } catch {
            #expect(error.message == message && error.path == nil && error.line == 1)
        }
    }

    @Test func jsonEscapesKept() async throws {
        #expect(try JSONParser.parse(Array(#"["\ud83d\ude00\u00e9\u0001\t\u007f"]"#.utf8)) == .array([.string("😀é\u{1}\t\u{7F}")]))
    }

    /// Duplicate keys are refused naming the object's path and the key, small objects and large.
    @Test func jsonDuplicateKeys() async throws {
        let small = regionsFile(#""id":"A","properties":{"name":"x","kind":"room","name":"y"},"#)
        do {
            _ = try regions(Array(small.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.description == "plan.geojson: $.features[0].properties: duplicate key \"name\"")
            #expect(error.problem == .duplicateKey("name"))
        }
        let large = "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k17\":0}"
        do {
            _ = try JSONParser.parse(Array(large.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.path == "$" && error.problem == .duplicateKey("k17") && error.message == "duplicate key \"k17\"")
        }
        // 40 different keys are fine.
        #expect(try JSONParser.parse(Array(large.dropLast(9).utf8) + [125]) != .null)
        // The streaming reader checks the top level too.
        #expect(throws: FormatError(.duplicateKey("features"), source: "m.geojson", path: "$")) {
            try geoJSONRows(#"{"type":"FeatureCollection","features":[],"features":[]}"#)
        }
        #expect(throws: FormatError(.duplicateKey("id"), source: "m.geojson", path: "$.features[0]")) {
            try geoJSONRows(pointsFile(#""id":"a","id":"b","#))
        }
    }

    /// Numeric ids keep their source text (JSON has no `007`: that is a syntax error).
    @Test func jsonNumericIDsKeepTheirText() async throws {
        let text = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":1.50,"geometry":\(square)},
        {"type":"Feature","id":1e2,"geometry":\(square)},
        {"type":"Feature","properties":{"id":-0},"geometry":\(square)},
        {"type":"Feature","id":12345678901234567890,"geometry":\(square)},
        {"type":"Feature","id":null,"properties":{"id":7.0},"geometry":\(square)},
        {"type":"Feature","id":"  s  ","geometry":\(square)}
        ]}
        """
        #expect(try regions(Array(text.utf8)).map(\.id) == ["1.50", "1e2", "-0", "12345678901234567890", "7.0", "  s  "])
        // A tree parsed elsewhere only has the values.
        let tree = try JSONParser.parse(Array(text.utf8))
        #expect(try RegionsFile.regions(from: tree, source: "t").map(\.id) == ["1.5", "100", "0", "1.2345678901234567e+19", "7", "  s  "])
        let points = try geoJSONRows("""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":1.50,"geometry":{"type":"Point","coordinates":[1,2]}},
            {"type":"Feature","properties":{"id":0.10e1},"geometry":{"type":"Point","coordinates":[3,4]}}]}
            """)
        #expect(points.map(\.id) == ["1.50", "0.10e1"])
        do {
            _ = try geoJSONRows(pointsFile(#""id":007,"#))
            Issue.record("accepted 007")
        } catch {
            #expect(error.line == 1 && error.path == nil)
        }
    }

    /// Ids: control characters (C0 but tab, DEL) refused with the path; other types refused, not renumbered.
    @Test(arguments: [
        (#""id":"a\u0007b","#, "$.features[0].id: control character U+0007"),
        (#""id":"a\nb","#, "$.features[0].id: control character U+000A"),
        (#""properties":{"id":"\u007f"},"#, "$.features[0].properties.id: control character U+007F"),
        (#""id":true,"#, "$.features[0].id: expected a string or a number, found a boolean"),
        (#""properties":{"id":[1]},"#, "$.features[0].properties.id: expected a string or a number, found an array"),
    ])
    func jsonIDsRefused(_ head: String, _ message: String) async {
        do {
            _ = try regions(Array(regionsFile(head).utf8))
            Issue.record("regions accepted \(head)")
        } catch {
            #expect(error.description == "plan.geojson: " + message)
        }
        do {
            _ = try geoJSONRows(pointsFile(head))
            Issue.record("markers accepted \(head)")
        } catch {
            #expect(error.description == "m.geojson: " + message)
        }
    }

    /// Notes keep tabs and newlines; a note that is not a string is refused, not dropped.
    @Test func jsonNotes() async throws {
        let got = try geoJSONRows(pointsFile(#""id":"a\tb","properties":{"note":"line 1\nline\t2","author":null},"#))
        #expect(got == [MarkerRow(id: "a\tb", line: 0, position: PixelPoint(x: 1, y: 2), note: "line 1\nline\t2", ref: "a\tb")])
        #expect(throws: FormatError(.malformed, source: "m.geojson", path: "$.features[0].properties.note", message: "expected a string, found a number")) {
            try geoJSONRows(pointsFile(#""properties":{"note":5},"#))
        }
        #expect(throws: FormatError(.nulCharacter, source: "m.geojson", path: "$.features[0].properties.author")) {
            try geoJSONRows(pointsFile(#""properties":{"author":"\u0000"},"#))
        }
    }

    /// `features` must be an array in a markers file too (it was silently empty).
    @Test func geoJSONMarkersNeedFeatures() async {
        #expect(throws: FormatError(.malformed, source: "m.geojson", path: "$.features", message: "expected an array of features")) {
            try geoJSONRows(#"{"type":"FeatureCollection","features":5}"#)
        }
    }
}
