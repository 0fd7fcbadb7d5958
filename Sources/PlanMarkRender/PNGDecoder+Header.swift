import CPNG

/// The colour type recorded in a PNG's IHDR chunk, before normalisation to RGBA.
public enum PNGColourType: Int, Sendable {
    /// Greyscale (colour type 0).
    case greyscale = 0
    /// Red, green, blue (colour type 2).
    case rgb = 2
    /// Palette indices (colour type 3).
    case palette = 3
    /// Greyscale with alpha (colour type 4).
    case greyscaleAlpha = 4
    /// Red, green, blue, alpha (colour type 6).
    case rgba = 6
}

/// What a PNG's header says about it: read before any pixel memory is allocated.
public struct PNGFileHeader: Hashable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bits per sample as stored: 1, 2, 4, 8 or 16.
    public var bitDepth: Int
    /// Colour type as stored.
    public var colourType: PNGColourType
    /// True for Adam7-interlaced images.
    public var isInterlaced: Bool
    /// True when a tRNS chunk gives transparency to an image without an alpha channel.
    public var hasTransparencyChunk: Bool
    /// Print scale from the pHYs chunk, nil when absent.
    public var physicalScale: PhysicalScale?

    /// Creates a header value.
    public init(
        width: Int, height: Int, bitDepth: Int, colourType: PNGColourType, isInterlaced: Bool,
        hasTransparencyChunk: Bool = false, physicalScale: PhysicalScale? = nil
    ) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colourType = colourType
        self.isInterlaced = isInterlaced
        self.hasTransparencyChunk = hasTransparencyChunk
        self.physicalScale = physicalScale
    }

    /// Converts CPNG's header struct (colour types other than the five PNG ones never get here:
    /// libpng refuses them as invalid IHDR data).
    init(_ raw: cpng_header) {
        self.init(
            width: Int(raw.width), height: Int(raw.height), bitDepth: Int(raw.bit_depth),
            colourType: PNGColourType(rawValue: Int(raw.color_type)) ?? .rgba,
            isInterlaced: raw.interlaced != 0, hasTransparencyChunk: raw.has_trns != 0,
            physicalScale: raw.has_phys != 0
                ? PhysicalScale(pixelsPerUnitX: raw.phys_x, pixelsPerUnitY: raw.phys_y, unitIsMetre: raw.phys_unit_metre != 0)
                : nil)
    }
}

extension PNGDecoder {
    /// Reads only the header of a PNG file (signature and chunks up to the first IDAT).
    ///
    /// Sides beyond `maxSide` are refused (libpng's user limit); the pixel budget is not checked here,
    /// `checkLimits(_:source:)` does that.
    public func readHeader(path: String) throws(RenderError) -> PNGFileHeader {
        let session = try PNGReadSession(path: path, decoder: self)
        return try session.readHeader()
    }

    /// Reads only the header of a PNG held in memory; `source` names it in errors (e.g. "<stdin>").
    public func readHeader(data: [UInt8], source: String) throws(RenderError) -> PNGFileHeader {
        let result: Result<PNGFileHeader, RenderError> = data.withUnsafeBufferPointer { bytes in
            Result { () throws(RenderError) -> PNGFileHeader in
                let session = try PNGReadSession(bytes: bytes, source: source, decoder: self)
                return try session.readHeader()
            }
        }
        return try result.get()
    }

    /// Refuses a header beyond the side limit or the pixel budget; called before any pixel allocation.
    public func checkLimits(_ header: PNGFileHeader, source: String) throws(RenderError) {
        if header.width > maxSide || header.height > maxSide {
            throw .imageSideTooLarge(source: source, width: header.width, height: header.height, maxSide: maxSide)
        }
        let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        if overflow || pixels > maxPixels {
            throw .imageTooManyPixels(source: source, width: header.width, height: header.height, maxPixels: maxPixels)
        }
    }
}
