/// Why a page's CairoScript is not replayed: one line each, and a stable `code`. The page is then drawn as pixels
/// (the report says why); none of these is a user's error.
public enum PDFScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The script has more than `max` bytes.
    case tooLarge(bytes: Int, max: Int)
    /// The page uses a font that CairoScript carries only as glyph pictures or glyph procedures (Type 1, CFF, Type 3):
    /// its text would not stay outlines (cairo 1.16 writes such glyphs as small bitmaps, or empty).
    case glyphFonts
    /// Something cairo's script surface does not write: an operator that is not on its list (files, loops, procedures
    /// ...), a byte outside ASCII CairoScript, a name, form or string it never writes.
    case unexpected(line: Int, what: String)
    /// What the script declares (images and compressed data, decompressed) comes to more than `max` bytes.
    case tooMuchDecoded(bytes: Int, max: Int)
    /// The script does not make exactly one page surface (`count` of them).
    case pageSurfaces(count: Int)
    /// The page's size is not one (not a positive finite number of points).
    case pageSize(width: Double, height: Double)
    /// The interpreter stopped with an error (`status`, cairo's or the interpreter's) at `line`.
    case replay(line: Int, status: String)
    /// cairo failed to record or write the page.
    case cairo(String)

    /// A stable name for the case.
    public var code: String {
        switch self {
        case .tooLarge: "too_large"
        case .glyphFonts: "glyph_fonts"
        case .unexpected: "unexpected"
        case .tooMuchDecoded: "too_much_decoded"
        case .pageSurfaces: "page_surfaces"
        case .pageSize: "page_size"
        case .replay: "replay"
        case .cairo: "cairo"
        }
    }

    /// The one-line message.
    public var description: String {
        switch self {
        case .tooLarge(let bytes, let max):
            "its CairoScript has \(bytes) bytes, over the limit of \(max)"
        case .glyphFonts:
            "it uses a Type 1, CFF or Type 3 font, whose glyphs CairoScript cannot carry as outlines"
        case .unexpected(let line, let what):
            "its CairoScript has \(what) at line \(line), which cairo's script surface does not write"
        case .tooMuchDecoded(let bytes, let max):
            "its CairoScript declares \(bytes) bytes of images and compressed data, over the limit of \(max)"
        case .pageSurfaces(let count):
            "its CairoScript makes \(count) page surfaces, not one"
        case .pageSize(let width, let height):
            "its CairoScript's page is \(width) x \(height) pt"
        case .replay(let line, let status):
            "its CairoScript does not replay: \(status) at line \(line)"
        case .cairo(let message):
            "cairo: \(message)"
        }
    }
}
