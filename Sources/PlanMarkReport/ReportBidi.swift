/// The order in which a line's characters are drawn: right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko)
/// reversed into visual order inside a left-to-right line, as the Unicode Bidirectional Algorithm (UAX #9) lays
/// out a paragraph whose base direction is left to right.
///
/// cairo's toy text API draws characters in the order it is given them, left to right; without this a Hebrew
/// note came out of the PDF with every word mirrored (and text extraction, which reads glyphs by position,
/// reversed it). This is the subset of UAX #9 a report line needs: characters are classed strong left (L),
/// strong right (R, AL), European number (EN) or neutral; neutrals between two right-to-left characters
/// (numbers count as right-to-left there, rule N1) take their direction, other neutrals the line's (N2); numbers
/// after right-to-left text keep their own left-to-right order (W7, I2); then runs are reversed by level (L2)
/// and brackets in right-to-left runs mirrored (L4). Explicit embeddings and isolates (U+202A...U+202E,
/// U+2066...U+2069) are not interpreted: their marks are drawn as they are. Arabic letters are drawn unshaped
/// (in their isolated forms): shaping needs a shaping engine such as HarfBuzz.
enum ReportBidi {
    /// `line` in visual order; the line itself when it holds no right-to-left character (the usual case, one scan).
    /// - Complexity: O(n) for n characters.
    static func visualOrder(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: { direction(of: $0) == .right }) else { return line }
        let characters = Array(line)
        let classes = characters.map { direction(of: $0.unicodeScalars.first!) }
        // Levels: 0 left to right, 1 right to left, 2 a number inside right-to-left text.
        var levels = [Int](repeating: 0, count: characters.count)
        var previousStrong = Direction.left
        for (index, direction) in classes.enumerated() {
            switch direction {
            case .left: levels[index] = 0; previousStrong = .left
            case .right: levels[index] = 1; previousStrong = .right
            case .number: levels[index] = previousStrong == .right ? 2 : 0
            case .neutral: levels[index] = -1
            }
        }
        // Neutrals: right to left between two right-to-left sides (numbers after right-to-left text count as one).
        var index = 0
        while index < characters.count {
            guard levels[index] == -1 else { index += 1; continue }
            var end = index
            while end < characters.count && levels[end] == -1 { end += 1 }
            let before = index > 0 ? levels[index - 1] : 0
            let after = end < characters.count ? levels[end] : 0
            let level = before >= 1 && after >= 1 ? 1 : 0
            for i in index..<end { levels[i] = level }
            index = end
        }
        // L2: from the highest level down to 1, reverse every run at that level or higher.
        var order = Array(characters.indices)
        for level in stride(from: levels.max() ?? 0, through: 1, by: -1) {
            var start = 0
            while start < order.count {
                guard levels[order[start]] >= level else { start += 1; continue }
                var end = start
                while end < order.count && levels[order[end]] >= level { end += 1 }
                order[start..<end].reverse()
                start = end
            }
        }
        var out = ""
        out.reserveCapacity(line.utf8.count)
        for i in order {
            let character = characters[i]
            if levels[i] % 2 == 1, let mirrored = mirror[character] { out.append(mirrored) } else { out.append(character) }
        }
        return out
    }

    enum Direction { case left, right, number, neutral }

    /// The bidirectional class of a character's first scalar, reduced to four.
    static func direction(of scalar: Unicode.Scalar) -> Direction {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x200F, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
            // Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan ..., their presentation forms, RLM, and the
            // right-to-left blocks of the supplementary planes. Arabic-Indic digits count as letters here.
            return .right
        case 0x30...0x39:
            return .number
        default:
            return scalar.properties.isAlphabetic ? .left : .neutral
        }
    }

    /// Bidi_Mirroring_Glyph pairs a report line meets.
    static let mirror: [Character: Character] = [
        "(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{", "<": ">", ">": "<", "«": "»", "»": "«",
    ]
}
