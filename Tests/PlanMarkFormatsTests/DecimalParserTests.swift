import Testing
@testable import PlanMarkFormats
import PlanMarkTestSupport

/// The byte-level number parser: decimal text only, rounded exactly as the standard library rounds.
@Suite struct DecimalParserTests {
    static func parse(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { DecimalParser.parse($0) }
    }

    /// Decimal forms, including `.5`, `5.` and `+3` (which CSV readers have always accepted): the
    /// same double as `Double(String)`, bit for bit.
    @Test(arguments: ["0", "-0", "1", "12.5", "40", "0.1", "0.30000000000000004", "1234.5678", "-7.25",
                      "9007199254740993", "123456789012345", "1234567890123456", "0.000000000000000000001",
                      "1e3", "2.5E-3", ".5", "5.", "+3", "-.5e-1", "5.e2", "1e400", "-1e400", "1e-400",
                      "4.35", "0.0001", "4.9e-324", "2.2250738585072011e-308", "1.7976931348623157e308"])
    func matchesStandardLibrary(_ text: String) async {
        let expected = Double(text)
        #expect(expected != nil)
        #expect(Self.parse(text)?.bitPattern == expected?.bitPattern)
    }

    /// Everything else `Double(String)` (strtod) takes is refused: hexadecimal, `inf`, `nan`, ...
    @Test(arguments: ["0x1c2", "0x1p3", "0X1P-2", "inf", "-inf", "nan", "NaN", "infinity", "-Infinity",
                      "nan(0x7)", "1_000", "", "abc", "1,5", "1.2.3", "-", "+", ".", "e5", "1e", "1e+", ".e1",
                      "--1", "+-1", "1 ", " 1", "0x", "1e5.5", "\u{0661}", "1\u{0}"])
    func refusesNonDecimals(_ text: String) async {
        #expect(Self.parse(text) == nil)
    }

    @Test func randomDecimalsRoundTrip() async {
        var generator = SeededGenerator()
        for _ in 0..<20000 {
            let digits = Int.random(in: 1...17, using: &generator)
            var text = String(UInt64.random(in: 0..<UInt64(1e17), using: &generator))
            text = String(text.prefix(digits))
            let point = Int.random(in: 0...text.count, using: &generator)
            text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            if Bool.random(using: &generator) { text = "-" + text }
            if Int.random(in: 0..<4, using: &generator) == 0 { text += "e\(Int.random(in: -330...310, using: &generator))" }
            let expected = Double(text)
            #expect(Self.parse(text)?.bitPattern == expected?.bitPattern, "\(text) (seed \(generator.seed))")
        }
    }

    /// A very long decimal is still parsed (slow path), in linear time.
    @Test func longDecimal() async {
        let text = "0." + String(repeating: "0", count: 100_000) + "1e100001"
        #expect(Self.parse(text) == 1)
    }
}
