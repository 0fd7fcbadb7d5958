import CPNG

/// Encodes RGBA images as 8-bit PNG: RGB when every pixel is opaque, RGBA otherwise, with an sRGB
/// chunk, the image's pHYs kept, no time or text chunks, so the same image always gives the same bytes.
///
/// Compression defaults come from measurement on drawing-like content (see `defaultCompressionLevel`).
public struct PNGEncoder: Sendable {
    /// Which PNG row filters libpng may choose from; a set of libpng's `PNG_FILTER_*` bits.
    public struct RowFilters: OptionSet, Sendable {
        /// The filter bits as libpng's `png_set_filter` takes them.
        public let rawValue: Int32
        /// Creates a filter set from libpng's bits.
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// No filtering.
        public static let none = RowFilters(rawValue: 0x08)
        /// Difference from the left pixel.
        public static let sub = RowFilters(rawValue: 0x10)
        /// Difference from the pixel above.
        public static let up = RowFilters(rawValue: 0x20)
        /// Difference from the mean of left and above.
        public static let average = RowFilters(rawValue: 0x40)
        /// Paeth predictor.
        public static let paeth = RowFilters(rawValue: 0x80)
        /// All five, chosen per row by libpng's heuristic (libpng's default).
        public static let all: RowFilters = [.none, .sub, .up, .average, .paeth]
    }

    /// Default zlib level: 3.
    ///
    /// Measured (CPU seconds, libpng 1.6.39, synthetic review image: white sheet, 200 tinted rooms with
    /// walls, 3000 anti-aliased lines, 4000 text-like glyph rows, 2000 markers; written as RGB):
    ///
    ///     7016x4961 (A2 300 dpi)    level/filters      size      time
    ///                               6 / all (libpng)   6.23 MB   1.09 s
    ///                               6 / up             6.44 MB   0.61 s
    ///                               6 / none           5.39 MB   0.62 s
    ///                               3 / none           5.82 MB   0.26 s   <- default
    ///                               9 / all            6.09 MB   5.80 s
    ///     14043x9933 (A0 300 dpi)   6 / all (libpng)  26.35 MB   4.27 s
    ///                               6 / up            26.53 MB   2.42 s
    ///                               6 / none          22.59 MB   2.73 s
    ///                               3 / none          24.42 MB   1.21 s   <- default
    ///
    /// Flat colours and white paper compress best unfiltered (zlib's matches against the row above do
    /// what the Up filter would, without the filter's edge noise); level 9 costs 5x for nothing.
    /// Level 3 writes files about 8% larger than level 6 in less than half the time; on the render
    /// benchmark's A2 review (Benchmarks/render) encoding took 0.26 s instead of 0.52 s, for 5.4 MB
    /// instead of 4.9 MB. `planmark render --compression 6` (or 9) trades time for size.
    public static let defaultCompressionLevel = 3
    /// Default filters: none (see `defaultCompressionLevel` for the measurement).
    public static let defaultFilters: RowFilters = .none

    /// zlib compression level, 0 to 9.
    public var compressionLevel: Int
    /// Row filters libpng may use.
    public var filters: RowFilters

    /// Creates an encoder with the measured defaults.
    public init(compressionLevel: Int = PNGEncoder.defaultCompressionLevel, filters: RowFilters = PNGEncoder.defaultFilters) {
        self.compressionLevel = compressionLevel
        self.filters = filters
    }

    /// Writes `image` to `path` atomically: a temporary file in the same folder is written, flushed
    /// and renamed over `path`; on failure nothing is left at `path` (an existing file stays as it was).
    /// - Complexity: O(width × height).
    public func write(_ image: RGBAImage, to path: String) throws(RenderError) {
        try validate(image)
        var message = [CChar](repeating: 0, count: 512)
        let status = withParameters(image) { parameters in
            cpng_write_file_atomic(path, &parameters, &message, message.count)
        }
        guard status == CPNG_OK else {
            let reason = Self.line(message)
            switch status {
            case CPNG_ERR_CREATE: throw .cannotCreateOutput(path: path, reason: reason)
            case CPNG_ERR_NO_MEMORY: throw .outOfMemory(source: path)
            case CPNG_ERR_USAGE: throw .cannotEncode(reason: reason)
            default: throw .outputWriteFailed(path: path, reason: reason)
            }
        }
    }

    /// Encodes `image` into PNG bytes in memory (for `-o -`).
    /// - Complexity: O(width × height).
    public func encode(_ image: RGBAImage) throws(RenderError) -> [UInt8] {
        try validate(image)
        var message = [CChar](repeating: 0, count: 512)
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = withParameters(image) { parameters in
            cpng_write_memory(&parameters, &output, &size, &message, message.count)
        }
        defer { cpng_free_buffer(output) }
        guard status == CPNG_OK, let output else {
            if status == CPNG_ERR_NO_MEMORY { throw .outOfMemory(source: "PNG output") }
            throw .cannotEncode(reason: Self.line(message))
        }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    private func validate(_ image: RGBAImage) throws(RenderError) {
        guard image.width > 0, image.height > 0 else {
            throw .cannotEncode(reason: "the image is empty (\(image.width)x\(image.height))")
        }
        guard image.width <= Int(Int32.max), image.height <= Int(Int32.max) else {
            throw .cannotEncode(reason: "\(image.width)x\(image.height) is larger than PNG allows")
        }
        guard image.pixels.count == image.width * image.height * 4 else {
            throw .cannotEncode(reason: "pixel buffer size does not match \(image.width)x\(image.height)")
        }
        guard (0...9).contains(compressionLevel) else {
            throw .cannotEncode(reason: "compression level \(compressionLevel) is outside 0...9")
        }
    }

    private func withParameters(_ image: RGBAImage, _ body: (inout cpng_write_params) -> cpng_status) -> cpng_status {
        image.pixels.withUnsafeBufferPointer { pixels in
            var parameters = cpng_write_params()
            parameters.rgba = pixels.baseAddress
            parameters.width = UInt32(image.width)
            parameters.height = UInt32(image.height)
            if let scale = image.physicalScale {
                parameters.has_phys = 1
                parameters.phys_x = scale.pixelsPerUnitX
                parameters.phys_y = scale.pixelsPerUnitY
                parameters.phys_unit_metre = scale.unitIsMetre ? 1 : 0
            }
            parameters.compression_level = Int32(compressionLevel)
            parameters.filters = filters.isEmpty ? RowFilters.none.rawValue : filters.rawValue
            // CPNG's choice: unfiltered (the default) is deflated on every core in independent row
            // segments joined into one zlib stream; other filters go through libpng, whose strategy is
            // "filtered" for them.
            parameters.strategy = -1
            return body(&parameters)
        }
    }

    private static func line(_ message: [CChar]) -> String {
        let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
