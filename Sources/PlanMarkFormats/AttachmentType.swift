/// The kinds of file a punch item can carry, decided by the file's first bytes (never by its name or by
/// what the client declares).
public enum AttachmentType: String, Hashable, Sendable, CaseIterable {
    /// `image/jpeg`: starts with the SOI marker and another marker (`FF D8 FF`).
    case jpeg = "image/jpeg"
    /// `image/png`: the 8-byte PNG signature.
    case png = "image/png"
    /// `application/pdf`: `%PDF-` at the start.
    case pdf = "application/pdf"

    /// The MIME type.
    public var contentType: String { rawValue }

    /// The type `bytes` start with; nil for anything else.
    /// - Complexity: O(1).
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(8))
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF {
            self = .jpeg
        } else if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            self = .png
        } else if head.count >= 5, head[0..<5].elementsEqual("%PDF-".utf8) {
            self = .pdf
        } else {
            return nil
        }
    }

    /// The type a declared `Content-Type` names (parameters and case ignored; `image/jpg` and `image/pjpeg`
    /// are JPEG); nil when it names none of these.
    public init?(contentType declared: String) {
        let base = declared.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces.lowercased() } ?? ""
        switch base {
        case "image/jpeg", "image/jpg", "image/pjpeg": self = .jpeg
        case "image/png": self = .png
        case "application/pdf": self = .pdf
        default: return nil
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
