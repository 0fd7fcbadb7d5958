/// The straight-line distance between two positions on the drawing.
extension PixelPoint {
    /// The Euclidean distance to `other`, in pixels: `sqrt(dx * dx + dy * dy)` in doubles (exact for
    /// whole-pixel differences forming a Pythagorean triple, e.g. 300 and 400 give 500).
    /// - Complexity: O(1).
    public func distance(to other: PixelPoint) -> Double {
        let dx = other.x - x, dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }
}
