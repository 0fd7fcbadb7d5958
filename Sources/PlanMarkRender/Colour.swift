/// A colour to draw with: 8-bit sRGB components and a straight (not premultiplied) alpha.
public struct Colour: Hashable, Sendable {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) ... 255 (opaque).
    public var alpha: UInt8

    /// Creates a colour from its components.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Creates a colour from `0xRRGGBB` and an opacity in 0...1 (clamped).
    public init(rgb: UInt32, opacity: Double = 1) {
        self.init(
            red: UInt8(truncatingIfNeeded: rgb >> 16), green: UInt8(truncatingIfNeeded: rgb >> 8),
            blue: UInt8(truncatingIfNeeded: rgb), alpha: UInt8((min(max(opacity, 0), 1) * 255).rounded()))
    }

    /// The same colour with another opacity in 0...1.
    public func withOpacity(_ opacity: Double) -> Colour {
        var copy = self
        copy.alpha = UInt8((min(max(opacity, 0), 1) * 255).rounded())
        return copy
    }

    /// Opaque white.
    public static let white = Colour(red: 255, green: 255, blue: 255)
    /// Opaque black.
    public static let black = Colour(red: 0, green: 0, blue: 0)
}
