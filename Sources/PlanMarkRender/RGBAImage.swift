/// An 8-bit RGBA raster, rows top to bottom, 4 bytes a pixel, straight (not premultiplied) alpha.
/// The shared currency between the PNG decoder, the rasteriser and the PNG encoder.
public struct RGBAImage: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes, row-major, RGBA order.
    public var pixels: [UInt8]
    /// Print scale from the source's pHYs chunk, kept on output; nil when the source had none.
    public var physicalScale: PhysicalScale?

    /// Creates an image from its pixel bytes (`pixels.count` must be `width * height * 4`).
    public init(width: Int, height: Int, pixels: [UInt8], physicalScale: PhysicalScale? = nil) {
        assert(pixels.count == width * height * 4, "RGBAImage: pixel buffer size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.physicalScale = physicalScale
    }
}

/// A PNG pHYs chunk: pixels per unit on each axis, the unit being the metre or unknown.
public struct PhysicalScale: Hashable, Sendable {
    /// Pixels per unit along x.
    public var pixelsPerUnitX: UInt32
    /// Pixels per unit along y.
    public var pixelsPerUnitY: UInt32
    /// True when the unit is the metre (PNG unit specifier 1).
    public var unitIsMetre: Bool

    /// Creates a print scale.
    public init(pixelsPerUnitX: UInt32, pixelsPerUnitY: UInt32, unitIsMetre: Bool) {
        self.pixelsPerUnitX = pixelsPerUnitX
        self.pixelsPerUnitY = pixelsPerUnitY
        self.unitIsMetre = unitIsMetre
    }
}
