/// Writes JSON text: numbers as JavaScript prints them, strings escaped.
public enum JSONNumber {
    /// A number as JSON: integral values up to 2^53 without a fraction (`40`, not `40.0`), others in
    /// Swift's shortest round-trip form (`12.5`, `1e-07`); `-0.0` becomes `0` as in `JSON.stringify`. Non-finite values
    /// become `null`, since JSON has no spelling for them.
    public static func text(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(.towardZero) && abs(value) < 9_007_199_254_740_992 {
            if value == 0 { return "0" }
            return String(Int64(value))
        }
        return value.description
    }
}

/// JSON string escaping.
public enum JSONString {
    /// `text` as a quoted JSON string.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        append(text, to: &out)
        out += "\""
        return out
    }

    /// Appends `text`, escaped but without quotes, to `out`.
    public static func append(_ text: String, to out: inout String) {
        var needsEscape = false
        for byte in text.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            needsEscape = true
            break
        }
        guard needsEscape else {
            out += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }
}
