/// Checks text before it is stored, so that what is stored is exactly what was acknowledged.
///
/// SQLite's text binding through GRDB reads C strings: a NUL character would silently cut the text.
/// Text with NUL is refused instead. Names (drawings) are what users type and what paths carry, so
/// they also refuse every control character (C0, DEL, C1).
package enum TextField {
    /// Refuses `text` when it holds a NUL character.
    /// - Complexity: O(length).
    package static func check(_ text: String?, field: String) throws(StoreError) {
        guard let text else { return }
        if text.utf8.contains(0) { throw .invalidText(field: field, problem: "contains a NUL character") }
    }

    /// Refuses an empty name or one with control characters.
    /// - Complexity: O(length).
    package static func checkName(_ name: String, field: String) throws(StoreError) {
        guard !name.isEmpty else { throw .invalidText(field: field, problem: "is empty") }
        if let scalar = name.unicodeScalars.first(where: isControl) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            throw .invalidText(field: field, problem: "contains the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code)")
        }
    }

    /// C0 controls, DEL and C1 controls.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
