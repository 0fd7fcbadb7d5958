import Testing
@testable import PlanMarkFormats

/// The byte-level number parser must give exactly what the standard library's `Double(String)` gives.
@Suite struct DecimalParserTests {
    static func parse(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { DecimalParser.parse($0) }
    }

    @Test(arguments: ["0", "-0", "1", "12.5", "40", "0.1", "0.30000000000000004", "1234.5678", "-7.25",
                      "9007199254740993", "123456789012345", "1234567890123456", "0.000000000000000000001",
                      "1e3", "2.5E-3", ".5", "5.", "+3", "1e400", "inf", "nan", "-infinity", "4.35", "0.0001"])
    func matchesStandardLibrary(_ text: String) {
        let expected = Double(text)
        let got = Self.parse(text)
        #expect(got?.bitPattern == expected?.bitPattern || (got?.isNaN == true && expected?.isNaN == true))
    }

    @Test(arguments: ["", "abc", "1,5", "1.2.3", "-", ".", "1 ", " 1", "0x"])
    func refusesNonNumbers(_ text: String) {
        #expect(Self.parse(text) == Double(text))
    }

    @Test func randomDecimalsRoundTrip() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20000 {
            let digits = Int.random(in: 1...17, using: &generator)
            var text = String(UInt64.random(in: 0..<UInt64(1e17), using: &generator))
            text = String(text.prefix(digits))
            let point = Int.random(in: 0...text.count, using: &generator)
            text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            if Bool.random(using: &generator) { text = "-" + text }
            let expected = Double(text)
            #expect(Self.parse(text)?.bitPattern == expected?.bitPattern, "\(text)")
        }
    }
}
