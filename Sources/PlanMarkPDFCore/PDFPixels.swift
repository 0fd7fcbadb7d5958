/// The one rule for how many pixels a length in points becomes when a page is drawn at a resolution; the poppler
/// module measures pages with it and `planmark-pdf info` reports it, so no other place rounds.
public enum PDFPixels {
    /// `ceil(points * dpi / 72)`, so that the drawing covers the whole page (595 pt at 300 dpi is 2479.17 px: 2480).
    /// A side within 1e-6 px above a whole number counts as that number, so that rounding in `points * dpi / 72`
    /// never adds a pixel (200 pt at 34.2 dpi is 95.00000000000001 in doubles: 95). Nil when the result is not finite
    /// or does not fit in an `Int` (below 2^62); never negative.
    /// - Complexity: O(1).
    public static func side(points: Double, dpi: Double) -> Int? {
        let exact = points * dpi / 72
        let value = (exact - 1e-6).rounded(.up)
        guard value.isFinite, value < 0x1p62 else { return nil }
        return max(0, Int(value))
    }
}
