import Testing
@testable import PlanMarkFormats

/// The JSON parser: values, escapes, errors with line numbers, the depth limit.
@Suite struct JSONParserTests {
    static func parse(_ text: String) throws(JSONParser.Failure) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    @Test func values() async throws {
        let value = try Self.parse(#"{"a": [1, -2.5, 3e2, true, false, null], "b": "x\"y\\z\u00e9\ud83d\ude00", "c": {}}"#)
        #expect(value["a"] == .array([.number(1), .number(-2.5), .number(300), .bool(true), .bool(false), .null]))
        #expect(value["b"] == .string("x\"y\\zé😀"))
        #expect(value["c"] == .object([]))
        #expect(value["missing"] == nil)
    }

    @Test(arguments: [
        ("{\n\"a\": [1, 2,]\n}", 2),
        ("{\"a\": 1}\n\nx", 3),
        ("[1, 2", 1),
        ("{\"a\" 1}", 1),
        ("\n\n[01]", 3),
        ("[\"abc]", 1),
        ("[nul]", 1),
    ])
    func errorsNameTheLine(_ text: String, _ line: Int) {
        do {
            _ = try Self.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == line)
        }
    }

    @Test func depthLimit() async {
        let deep = String(repeating: "[", count: 10000) + String(repeating: "]", count: 10000)
        #expect(throws: JSONParser.Failure.self) { try Self.parse(deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? Self.parse(fine)) != nil)
    }

    @Test func streamsFeatures() async throws {
        let text = #"{"type":"FeatureCollection","features":[{"n":1},{"n":2},{"n":3}],"extra":true}"#
        var seen: [Int] = []
        let members = try JSONParser.parseFeatureCollection(Array(text.utf8)) { index, feature in
            #expect(feature["n"] == .number(Double(index + 1)))
            seen.append(index)
        }
        #expect(seen == [0, 1, 2])
        #expect(members.map(\.0) == ["type", "features", "extra"])
    }
}
