import Foundation

/// The committed vectors of `Vectors/` (written by `Vectors/generate.js` with Node and Leaflet),
/// read as lines of whitespace-separated tokens; numbers are IEEE-754 bit patterns in hex.
enum CRSVectors {
    /// One vector line: its 1-based line number in the file and its tokens.
    struct Line: CustomStringConvertible {
        /// The line number in the file.
        var number: Int
        /// The tokens of the line.
        var tokens: [Substring]

        /// The token at `index` read as a hex bit pattern.
        func double(_ index: Int) -> Double {
            guard index < tokens.count, let bits = UInt64(tokens[index], radix: 16) else {
                preconditionFailure("vector line \(number): token \(index) is not a 16-digit hex bit pattern")
            }
            return Double(bitPattern: bits)
        }

        var description: String { "line \(number): \(tokens.joined(separator: " "))" }
    }

    /// The lines of `Vectors/<name>`, comments and blank lines left out.
    static func lines(of name: String) throws -> [Line] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Vectors").appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        var result: [Line] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if raw.isEmpty || raw.hasPrefix("#") { continue }
            result.append(Line(number: offset + 1, tokens: raw.split(separator: " ")))
        }
        return result
    }

    /// True when `actual` is `expected` bit for bit, or both are NaN (JavaScript does not keep NaN
    /// payloads, so any NaN is the same NaN).
    static func same(_ actual: Double, _ expected: Double) -> Bool {
        actual.bitPattern == expected.bitPattern || (actual.isNaN && expected.isNaN)
    }

    /// A `Double`'s bits as 16 hex digits, for failure messages.
    static func hex(_ value: Double) -> String {
        let digits = String(value.bitPattern, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
