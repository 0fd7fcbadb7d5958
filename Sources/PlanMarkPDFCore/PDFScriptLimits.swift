/// What a page's CairoScript (`planmark-pdf script`, the page's vectors handed to the report) may cost, checked where
/// it is written (the child stops writing at `maxBytes`) and again where it is read and before it is replayed (the
/// parent reads no more than `maxBytes`, and replays nothing whose declared pixels and compressed data, once
/// decompressed, come to more than `maxDecodedBytes`). A page over them is drawn as pixels instead.
public struct PDFScriptLimits: Hashable, Sendable {
    /// The default size limit of a script: 64 MiB (an A0 sheet of 100,000 lines and its TrueType fonts is about
    /// 10 MiB).
    public static let defaultMaxBytes = 64 << 20
    /// The default limit of what a replay may decode: 256 MiB of pixels and decompressed data, what a drawing of
    /// 64 million pixels costs as pixels.
    public static let defaultMaxDecodedBytes = 256 << 20

    /// The most bytes of CairoScript.
    public var maxBytes: Int
    /// The most bytes the replay may decode: each image or surface the script declares (4 bytes a pixel) and each
    /// compressed string at its declared decompressed length, all added up.
    public var maxDecodedBytes: Int

    /// Limits, each defaulting to its `default...` value.
    public init(maxBytes: Int = PDFScriptLimits.defaultMaxBytes, maxDecodedBytes: Int = PDFScriptLimits.defaultMaxDecodedBytes) {
        self.maxBytes = maxBytes
        self.maxDecodedBytes = maxDecodedBytes
    }
}
