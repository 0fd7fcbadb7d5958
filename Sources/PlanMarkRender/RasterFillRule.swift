/// Which points a path covers when its contours overlap or nest.
enum RasterFillRule: Sendable {
    /// Covered where the winding number is not zero (holes need the opposite orientation).
    case nonZero
    /// Covered where the winding number is odd (every nested contour toggles inside/outside).
    case evenOdd

    /// Coverage in 0...1 of a pixel whose integrated signed winding is `winding`.
    @inline(__always)
    func coverage(_ winding: Float) -> Float {
        let magnitude = abs(winding)
        switch self {
        case .nonZero:
            return min(magnitude, 1)
        case .evenOdd:
            let folded = magnitude - 2 * (magnitude * 0.5).rounded(.down)
            return folded > 1 ? 2 - folded : folded
        }
    }
}

/// A half-open rectangle of whole pixels: columns `x0..<x1`, rows `y0..<y1`.
struct PixelRect: Hashable, Sendable {
    /// First column.
    var x0: Int
    /// First row.
    var y0: Int
    /// One past the last column.
    var x1: Int
    /// One past the last row.
    var y1: Int

    /// Width in pixels (0 when empty).
    var width: Int { max(0, x1 - x0) }
    /// Height in pixels (0 when empty).
    var height: Int { max(0, y1 - y0) }
    /// True when no pixel is inside.
    var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

    /// The pixels in both rectangles.
    func intersection(_ other: PixelRect) -> PixelRect {
        PixelRect(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
    }
}
