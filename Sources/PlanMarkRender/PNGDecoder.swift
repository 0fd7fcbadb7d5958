/// Decodes PNG files into 8-bit straight RGBA through libpng's low-level API, refusing hostile input.
///
/// Every colour type and bit depth is normalised to RGBA 8-bit: palettes and tRNS expanded to alpha,
/// 1/2/4-bit grey expanded, 16-bit samples scaled with rounding (`png_set_scale_16`), grey copied to
/// R, G and B, opaque images given alpha 255, Adam7 images de-interlaced.
///
/// Gamma rule: none is applied. Samples are returned as stored and every file is treated as sRGB;
/// gAMA, cHRM, sRGB and iCCP chunks are skipped unread. This is what browsers do for untagged files and
/// what Pillow does for all files, and drawings from CAD exporters are sRGB in practice; converting
/// would change line colours that reviewers compare against the original drawing.
///
/// Limits: sides beyond `maxSide` are refused by libpng while it reads IHDR; images beyond `maxPixels`
/// are refused after the header is read and before pixel memory is allocated. Ancillary chunks the
/// renderer does not use (text, ICC profiles, ...) are skipped without decompression, others are
/// capped at `maxChunkBytes`. Benign libpng errors (e.g. extra data after the image) are warnings.
public struct PNGDecoder: Sendable {
    /// Default pixel budget: 200 megapixels (800 MB as RGBA).
    public static let defaultMaxPixels = 200_000_000
    /// Default side limit: 100,000 pixels (A0 at 2400 dpi is about 112,000 by 79,000; at 300 dpi 14,043).
    public static let defaultMaxSide = 100_000
    /// Default cap on a single ancillary chunk: 8 MB.
    public static let defaultMaxChunkBytes = 8_000_000

    /// Images with more pixels than this are refused before allocation (`--max-pixels`).
    public var maxPixels: Int
    /// Images wider or taller than this are refused while the header is read.
    public var maxSide: Int
    /// Largest ancillary chunk libpng may allocate, in bytes.
    public var maxChunkBytes: Int
    /// Receives libpng's warnings (one line each, without the source name); nil ignores them.
    public var warningHandler: (@Sendable (String) -> Void)?

    /// Creates a decoder with the given limits.
    public init(
        maxPixels: Int = PNGDecoder.defaultMaxPixels, maxSide: Int = PNGDecoder.defaultMaxSide,
        maxChunkBytes: Int = PNGDecoder.defaultMaxChunkBytes, warningHandler: (@Sendable (String) -> Void)? = nil
    ) {
        self.maxPixels = maxPixels
        self.maxSide = maxSide
        self.maxChunkBytes = maxChunkBytes
        self.warningHandler = warningHandler
    }

    /// Decodes the PNG file at `path`; errors name the path as given.
    /// - Complexity: O(width × height) time; memory is the RGBA result plus a few rows.
    public func decode(path: String) throws(RenderError) -> RGBAImage {
        let session = try PNGReadSession(path: path, decoder: self)
        return try decode(session)
    }

    /// Decodes a PNG held in memory (e.g. read from stdin); `source` names it in errors.
    /// - Complexity: O(width × height).
    public func decode(data: [UInt8], source: String) throws(RenderError) -> RGBAImage {
        let result: Result<RGBAImage, RenderError> = data.withUnsafeBufferPointer { bytes in
            Result { () throws(RenderError) -> RGBAImage in
                let session = try PNGReadSession(bytes: bytes, source: source, decoder: self)
                return try decode(session)
            }
        }
        return try result.get()
    }

    /// Checks that a PNG held in memory decodes under this decoder's limits, as `decode` would, without
    /// keeping its pixels: what `verify` accepts, `decode` accepts (given the memory for the pixels).
    /// Drawings are checked this way when they enter the store.
    /// - Complexity: O(width × height) time, O(width) memory.
    public func verify(data: [UInt8], source: String) throws(RenderError) -> PNGFileHeader {
        let result: Result<PNGFileHeader, RenderError> = data.withUnsafeBufferPointer { bytes in
            Result { () throws(RenderError) -> PNGFileHeader in
                let session = try PNGReadSession(bytes: bytes, source: source, decoder: self)
                let header = try session.readHeader()
                try checkLimits(header, source: source)
                try session.checkRows()
                return header
            }
        }
        return try result.get()
    }

    private func decode(_ session: PNGReadSession) throws(RenderError) -> RGBAImage {
        let header = try session.readHeader()
        try checkLimits(header, source: session.source)
        let pixels = try session.readPixels(header)
        if let warningHandler {
            for warning in session.warnings { warningHandler(warning) }
        }
        return RGBAImage(width: header.width, height: header.height, pixels: pixels, physicalScale: header.physicalScale)
    }
}
