/// Checks text before it is stored, so that what is stored is exactly what was acknowledged, and every
/// output can carry it.
///
/// SQLite's text binding through GRDB reads C strings: a NUL character would silently cut the text.
/// Text with NUL is refused instead. Unicode's 66 noncharacters (U+FDD0...U+FDEF and the last two code points
/// of every plane, U+FFFE, U+FFFF, U+1FFFE ... U+10FFFF) are "not for interchange": cairo, and so the PDF
/// report, refuses them, so they are refused here rather than dropped or replaced in one output. Names
/// (drawings) are what users type and what paths carry, so they also refuse every control character (C0,
/// DEL, C1).
package enum TextField {
    /// Refuses `text` when it holds a NUL character or a noncharacter.
    /// - Complexity: O(length).
    package static func check(_ text: String?, field: String) throws(StoreError) {
        guard let text else { return }
        var mayHoldNoncharacter = false
        for byte in text.utf8 {
            if byte == 0 { throw .invalidText(field: field, problem: "contains a NUL character") }
            // Every noncharacter's UTF-8 starts with 0xEF (the BMP's) or 0xF0...0xF4 (the other planes').
            if byte >= 0xEF { mayHoldNoncharacter = true }
        }
        if mayHoldNoncharacter, let scalar = text.unicodeScalars.first(where: isNoncharacter) {
            throw .invalidText(field: field, problem: "contains the noncharacter \(codePoint(scalar)), which is not for interchange")
        }
    }

    /// Refuses an empty name or one with control characters.
    /// - Complexity: O(length).
    package static func checkName(_ name: String, field: String) throws(StoreError) {
        guard !name.isEmpty else { throw .invalidText(field: field, problem: "is empty") }
        if let scalar = name.unicodeScalars.first(where: isControl) {
            throw .invalidText(field: field, problem: "contains the control character \(codePoint(scalar))")
        }
        try check(name, field: field)
    }

    /// U+FDD0...U+FDEF and every code point whose low 16 bits are FFFE or FFFF.
    package static func isNoncharacter(_ scalar: Unicode.Scalar) -> Bool {
        (0xFDD0...0xFDEF).contains(scalar.value) || scalar.value & 0xFFFE == 0xFFFE
    }

    /// `U+XXXX`, at least four hex digits.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let code = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code
    }

    /// C0 controls, DEL and C1 controls.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
