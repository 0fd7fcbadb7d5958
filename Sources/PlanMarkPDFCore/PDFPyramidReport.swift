/// What `planmark-pdf pyramid` writes on standard output while it draws a page's tile pyramid, and the parent reads:
/// one line after each band of rows drawn, `rows R` (R of the page's rows done so far), and when every tile is written,
/// `tiles T B` (T tiles, B bytes of PNG). Lines end with `\n`; nothing else is written.
public enum PDFPyramidReport: Hashable, Sendable {
    /// `rows R`: R rows of the page drawn and fed to the pyramid so far.
    case rows(Int)
    /// `tiles T B`: the pyramid is whole in the output folder: T tiles, B bytes.
    case done(tiles: Int, bytes: Int)

    /// The line, with its line break.
    /// - Complexity: O(1).
    public var line: String {
        switch self {
        case .rows(let rows): "rows \(rows)\n"
        case .done(let tiles, let bytes): "tiles \(tiles) \(bytes)\n"
        }
    }

    /// The report a line (without its break) stands for, or nil.
    /// - Complexity: O(length of `line`).
    public init?(line: some StringProtocol) {
        let words = line.split(separator: " ", omittingEmptySubsequences: false)
        switch words.first {
        case "rows":
            guard words.count == 2, let rows = Int(words[1]), rows >= 0 else { return nil }
            self = .rows(rows)
        case "tiles":
            guard words.count == 3, let tiles = Int(words[1]), let bytes = Int(words[2]), tiles >= 0, bytes >= 0 else { return nil }
            self = .done(tiles: tiles, bytes: bytes)
        default:
            return nil
        }
    }

    /// The most bytes the child may write for a page of `height` rows drawn in bands of at least `minimumBandRows`: a
    /// `rows` line a band (at most 32 bytes each) and the last line. The parent reads no more.
    /// - Complexity: O(1).
    public static func maxBytes(height: Int, minimumBandRows: Int) -> Int {
        (height / max(1, minimumBandRows) + 2) * 32 + 64
    }

    /// The rows of each band a page `width` pixels wide is drawn in: as many as fit in `bandBytes` of 8-bit RGBA, a
    /// multiple of 256 (a row of tiles) and at least 256, so the child holds one band of the page at a time.
    /// - Complexity: O(1).
    public static func bandRows(width: Int, bandBytes: Int = PDFPyramidReport.defaultBandBytes) -> Int {
        let rows = bandBytes / max(1, width * 4)
        return max(256, rows / 256 * 256)
    }

    /// The size of a band of the page the child draws at a time: 32 MiB (512 rows of an A0 sheet at 300 dpi, 14,043
    /// pixels wide; 768 rows of A0 upright). Each band walks all of the page's drawing operations, so fewer, larger bands
    /// are faster on a busy page; larger bands also let more tiles wait for the encoders: 32 MiB keeps an A0 sheet's
    /// pyramid under 300 MB (about 230 MB measured; 64 MiB: 310 MB).
    public static let defaultBandBytes = 32 << 20
}
