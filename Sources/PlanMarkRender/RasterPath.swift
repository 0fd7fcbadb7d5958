import PlanMarkGeometry

/// One straight edge of a path, in continuous pixel coordinates (y down).
struct RasterEdge: Hashable, Sendable {
    /// Start.
    var x0, y0: Double
    /// End.
    var x1, y1: Double
}

/// A set of closed contours made of line segments, ready for the rasteriser.
///
/// Pixel `(x, y)` covers `[x, x + 1) × [y, y + 1)`. Every contour is closed implicitly (the last point
/// joins the first). The winding of each contour counts for the fill rule, so holes are contours with
/// the opposite orientation (non-zero) or any orientation (even-odd).
struct RasterPath: Sendable {
    /// The edges of every contour; horizontal edges are kept out (they add no coverage).
    private(set) var edges: [RasterEdge] = []
    /// Bounds of every point added (horizontal edges included).
    private(set) var minX = Double.infinity, minY = Double.infinity
    private(set) var maxX = -Double.infinity, maxY = -Double.infinity

    private var start = PixelPoint(x: 0, y: 0)
    private var current = PixelPoint(x: 0, y: 0)
    private var open = false

    /// When true, every contour's points are kept as well as its edges (`contours`), for drawing the path as vectors
    /// (`ReviewOverlay`); off for the rasteriser, which needs only the edges.
    var keepsContours = false
    /// The contours' points, each contour closed implicitly, horizontal edges included (only when `keepsContours`).
    private(set) var contours: [[PixelPoint]] = []

    /// An empty path.
    init() {}

    /// An empty path that keeps its contours (`keepsContours`).
    init(keepingContours: Bool) {
        keepsContours = keepingContours
    }

    /// True when no edge has been added.
    var isEmpty: Bool { edges.isEmpty }

    /// Removes every contour, keeping the storage for reuse.
    mutating func removeAll() {
        edges.removeAll(keepingCapacity: true)
        contours.removeAll(keepingCapacity: true)
        minX = .infinity; minY = .infinity; maxX = -.infinity; maxY = -.infinity
        open = false
    }

    /// Starts a new contour at `point`, closing the previous one.
    mutating func move(to point: PixelPoint) {
        close()
        start = point
        current = point
        open = true
        include(point)
        if keepsContours { contours.append(point.isFinite ? [point] : []) }
    }

    /// Adds an edge from the current point to `point`.
    mutating func line(to point: PixelPoint) {
        assert(open, "RasterPath: line(to:) before move(to:)")
        addEdge(current, point)
        current = point
        include(point)
        if keepsContours && point.isFinite { contours[contours.count - 1].append(point) }
    }

    /// Closes the current contour with an edge back to its start.
    mutating func close() {
        guard open else { return }
        addEdge(current, start)
        current = start
        open = false
    }

    /// Adds `points` as one closed contour (nothing for fewer than two points).
    mutating func addPolygon(_ points: some Collection<PixelPoint>) {
        guard let first = points.first, points.count >= 2 else { return }
        move(to: first)
        for point in points.dropFirst() { line(to: point) }
        close()
    }

    /// Adds `points` scaled by `scale` then shifted by `offset` as one closed contour.
    mutating func addPolygon(_ points: [PixelPoint], scale: Double, offset: PixelPoint) {
        guard points.count >= 2 else { return }
        move(to: PixelPoint(x: points[0].x * scale + offset.x, y: points[0].y * scale + offset.y))
        for point in points.dropFirst() {
            line(to: PixelPoint(x: point.x * scale + offset.x, y: point.y * scale + offset.y))
        }
        close()
    }

    private mutating func addEdge(_ a: PixelPoint, _ b: PixelPoint) {
        guard a.y != b.y, a.isFinite, b.isFinite else { return }
        edges.append(RasterEdge(x0: a.x, y0: a.y, x1: b.x, y1: b.y))
    }

    private mutating func include(_ p: PixelPoint) {
        guard p.isFinite else { return }
        minX = min(minX, p.x); minY = min(minY, p.y)
        maxX = max(maxX, p.x); maxY = max(maxY, p.y)
    }
}
