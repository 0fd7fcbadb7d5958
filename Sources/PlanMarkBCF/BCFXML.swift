import Foundation
import XMLCoder

/// XML in and out of a BCF file, through XMLCoder, with what PlanMark adds around it: text that XML 1.0 cannot carry
/// made safe before it is written, and every document checked before it is parsed (UTF-8 only, no document type
/// declaration: no entity can be declared, so none is expanded and no external one is fetched).
enum BCFXML {
    /// Encodes `value` as the document element `root`, with an XML declaration.
    static func encode<T: Encodable>(_ value: T, root: String, file: String) throws(BCFError) -> [UInt8] {
        let encoder = XMLEncoder()
        // Carriage returns and tabs as references, so that a parser gives them back instead of normalising them; in
        // attributes line feeds too (a parser turns them into spaces).
        encoder.charactersEscapedInElements = [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\r", "&#13;")]
        encoder.charactersEscapedInAttributes = [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("\r", "&#13;"),
                                                 ("\n", "&#10;"), ("\t", "&#9;")]
        do {
            return Array(try encoder.encode(value, withRootKey: root, header: XMLHeader(version: 1.0, encoding: "UTF-8")))
        } catch {
            throw .writeFailed("\(file): \(error)")
        }
    }

    /// Decodes `bytes` after `check`.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], file: String) throws(BCFError) -> T {
        try check(bytes, file: file)
        let decoder = XMLDecoder(trimValueWhitespaces: false, removeWhitespaceElements: true)
        do {
            return try decoder.decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            throw .invalidXML(file: file, detail: describe(error))
        } catch {
            throw .invalidXML(file: file, detail: "not well-formed XML (\(error))")
        }
    }

    /// Refuses a document that is not UTF-8 (a UTF-16 or UTF-32 byte order mark, a NUL byte, another encoding declared)
    /// or that has a document type declaration.
    /// - Complexity: O(n) for n bytes.
    static func check(_ bytes: [UInt8], file: String) throws(BCFError) {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.contains(0) {
            throw .unsafeXML(file: file, detail: "only UTF-8 XML is read")
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        if body.starts(with: Array("<?xml".utf8)), let end = body.firstRange(of: Array("?>".utf8)) {
            let declaration = String(decoding: body[body.startIndex..<end.lowerBound], as: UTF8.self).lowercased()
            if let range = declaration.range(of: "encoding") {
                let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
                if !rest.hasPrefix("utf-8") && !rest.hasPrefix("utf8") {
                    throw .unsafeXML(file: file, detail: "only UTF-8 XML is read")
                }
            }
        }
        if body.firstRange(of: Array("<!DOCTYPE".utf8)) != nil || body.firstRange(of: Array("<!ENTITY".utf8)) != nil {
            throw .unsafeXML(file: file, detail: "a document type declaration is refused (entities are not expanded)")
        }
    }

    /// A decoding error in a line: the path of elements and what was wrong.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map(\.stringValue).filter { !$0.isEmpty && Int($0) == nil }
            return keys.isEmpty ? "" : keys.joined(separator: "/") + ": "
        }
        switch error {
        case .keyNotFound(let key, let context): return path(context) + "missing \(key.stringValue)"
        case .valueNotFound(_, let context): return path(context) + "missing value"
        case .typeMismatch(_, let context): return path(context) + context.debugDescription
        case .dataCorrupted(let context): return path(context) + context.debugDescription
        @unknown default: return "\(error)"
        }
    }

    /// `text` with what XML 1.0 cannot hold (C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF)
    /// replaced by U+FFFD.
    /// - Complexity: O(length).
    static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { !allowed($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(allowed(scalar) ? scalar : "\u{FFFD}") }
        return String(out)
    }

    static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
