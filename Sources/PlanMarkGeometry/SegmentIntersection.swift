/// True when the closed segments `p1-p2` and `q1-q2` share at least one point, decided exactly.
/// - Complexity: O(1).
@inlinable
public func segmentsIntersect(_ p1: PixelPoint, _ p2: PixelPoint, _ q1: PixelPoint, _ q2: PixelPoint) -> Bool {
    // Bounding boxes first: exact comparisons, and they settle the collinear cases below.
    if max(p1.x, p2.x) < min(q1.x, q2.x) || max(q1.x, q2.x) < min(p1.x, p2.x) { return false }
    if max(p1.y, p2.y) < min(q1.y, q2.y) || max(q1.y, q2.y) < min(p1.y, p2.y) { return false }
    let d1 = orientation(p1, p2, q1)
    let d2 = orientation(p1, p2, q2)
    let d3 = orientation(q1, q2, p1)
    let d4 = orientation(q1, q2, p2)
    if d1.rawValue * d2.rawValue < 0 && d3.rawValue * d4.rawValue < 0 { return true }
    return (d1 == .collinear && onSegmentBox(q1, p1, p2)) || (d2 == .collinear && onSegmentBox(q2, p1, p2))
        || (d3 == .collinear && onSegmentBox(p1, q1, q2)) || (d4 == .collinear && onSegmentBox(p2, q1, q2))
}

/// For a point known to be collinear with `a-b`: true when it lies within the segment's box.
@inlinable
func onSegmentBox(_ p: PixelPoint, _ a: PixelPoint, _ b: PixelPoint) -> Bool {
    p.x >= min(a.x, b.x) && p.x <= max(a.x, b.x) && p.y >= min(a.y, b.y) && p.y <= max(a.y, b.y)
}
