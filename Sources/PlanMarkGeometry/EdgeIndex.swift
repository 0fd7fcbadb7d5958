/// A ring prepared for repeated point location: rings with many vertices (curved walls) get an index
/// of their edges by horizontal bands, so a query reads only the edges whose y-range holds its y.
///
/// Only edges whose closed y-range contains the point's y can change the answer of a ray cast along
/// +x (crossing, on-edge, horizontal edge or vertex hit), and the band of the point's y holds all of
/// them, because the band number is a monotone function of y.
public struct PreparedRing: Sendable {
    /// The ring's vertices.
    @usableFromInline let vertices: [PixelPoint]
    /// The ring's box.
    @usableFromInline let bounds: BoundingBox
    /// Band `b` holds the edges `bandEdges[bandStarts[b] ..< bandStarts[b + 1]]`; empty when unindexed.
    @usableFromInline let bandStarts: [Int32]
    @usableFromInline let bandEdges: [Int32]
    @usableFromInline let bandScale: Double

    /// Rings with at least this many vertices get a band index.
    public static let indexThreshold = 32

    /// Prepares `ring`.
    /// - Complexity: O(n + e) time and memory, for n vertices and e (edge, band) pairs.
    public init(_ ring: Ring) {
        vertices = ring.vertices
        bounds = ring.bounds
        let n = vertices.count
        let height = bounds.maxY - bounds.minY
        guard n >= Self.indexThreshold, height > 0 else {
            bandStarts = []
            bandEdges = []
            bandScale = 0
            return
        }
        let bandCount = max(1, n / 2)
        let scale = Double(bandCount) / height
        let minY = bounds.minY
        func band(_ y: Double) -> Int { min(bandCount - 1, max(0, Int((y - minY) * scale))) }
        var counts = [Int32](repeating: 0, count: bandCount + 1)
        for i in 0..<n {
            let a = vertices[i].y, b = vertices[i + 1 == n ? 0 : i + 1].y
            for k in band(min(a, b))...band(max(a, b)) { counts[k + 1] += 1 }
        }
        for k in 0..<bandCount { counts[k + 1] += counts[k] }
        var fill = counts
        var edges = [Int32](repeating: 0, count: Int(counts[bandCount]))
        for i in 0..<n {
            let a = vertices[i].y, b = vertices[i + 1 == n ? 0 : i + 1].y
            for k in band(min(a, b))...band(max(a, b)) {
                edges[Int(fill[k])] = Int32(i)
                fill[k] += 1
            }
        }
        bandStarts = counts
        bandEdges = edges
        bandScale = scale
    }

    /// Locates `point` against the ring.
    /// - Complexity: O(n) unindexed; O(edges in the point's band) indexed.
    @inlinable
    public func locate(_ point: PixelPoint) -> PointLocation {
        vertices.withUnsafeBufferPointer { v in
            bandStarts.withUnsafeBufferPointer { starts in
                bandEdges.withUnsafeBufferPointer { edges in
                    RingView(vertices: v, bounds: bounds, bandStarts: starts, bandEdges: edges, bandScale: bandScale).locate(point)
                }
            }
        }
    }
}

/// A ring's data seen through pointers, so that locating a point costs no reference counting.
/// `PreparedRing` and the packed region index both locate through it.
@usableFromInline
struct RingView {
    @usableFromInline let vertices: UnsafeBufferPointer<PixelPoint>
    @usableFromInline let bounds: BoundingBox
    /// Band offsets (`bandCount + 1` of them), empty when the ring has no band index.
    @usableFromInline let bandStarts: UnsafeBufferPointer<Int32>
    @usableFromInline let bandEdges: UnsafeBufferPointer<Int32>
    @usableFromInline let bandScale: Double

    @inlinable
    init(vertices: UnsafeBufferPointer<PixelPoint>, bounds: BoundingBox, bandStarts: UnsafeBufferPointer<Int32>,
         bandEdges: UnsafeBufferPointer<Int32>, bandScale: Double) {
        self.vertices = vertices
        self.bounds = bounds
        self.bandStarts = bandStarts
        self.bandEdges = bandEdges
        self.bandScale = bandScale
    }

    /// Locates `point` against the ring by ray crossing, reading only the point's band when indexed.
    /// - Complexity: O(n) unindexed; O(edges in the point's band) indexed.
    @inlinable
    func locate(_ point: PixelPoint) -> PointLocation {
        guard bounds.contains(point) else { return .outside }
        var counter = RayCrossingCounter(point)
        let n = vertices.count
        if bandStarts.isEmpty {
            var previous = vertices[n - 1]
            for vertex in vertices {
                counter.count(previous, vertex)
                if counter.onBoundary { return .boundary }
                previous = vertex
            }
        } else {
            let bandCount = bandStarts.count - 1
            let band = min(bandCount - 1, max(0, Int((point.y - bounds.minY) * bandScale)))
            for slot in Int(bandStarts[band])..<Int(bandStarts[band + 1]) {
                let i = Int(bandEdges[slot])
                counter.count(vertices[i], vertices[i + 1 == n ? 0 : i + 1])
                if counter.onBoundary { return .boundary }
            }
        }
        return counter.location
    }
}

/// Combines ring locations into a region's: inside a polygon's outer ring and no hole is inside
/// (and ends the search); on any ring is boundary; else outside. Polygon `p` has the rings
/// `rings(p)`, the first of them its outer ring.
/// - Complexity: O(rings) calls of `locateRing`.
@inlinable
func combineRingLocations(polygonCount: Int, rings: (Int) -> Range<Int>, locateRing: (Int) -> PointLocation) -> PointLocation {
    var result = PointLocation.outside
    polygonLoop: for p in 0..<polygonCount {
        let range = rings(p)
        switch locateRing(range.lowerBound) {
        case .outside: continue
        case .boundary: result = .boundary
        case .inside:
            for hole in (range.lowerBound + 1)..<range.upperBound {
                switch locateRing(hole) {
                case .outside: continue
                case .boundary:
                    result = .boundary
                    continue polygonLoop
                case .inside: continue polygonLoop
                }
            }
            return .inside
        }
    }
    return result
}

/// A region prepared for repeated point location (each ring a `PreparedRing`).
public struct PreparedRegion: Sendable {
    /// The region itself.
    public let region: Region
    /// Every ring, polygon by polygon, outer ring first.
    @usableFromInline let rings: [PreparedRing]
    /// The rings of each polygon, as ranges of `rings`.
    @usableFromInline let polygonRings: [Range<Int>]

    /// Prepares every ring of `region`.
    /// - Complexity: O(n) for n vertices.
    public init(_ region: Region) {
        self.region = region
        var rings: [PreparedRing] = []
        var ranges: [Range<Int>] = []
        for polygon in region.polygons {
            let start = rings.count
            rings.append(PreparedRing(polygon.exterior))
            rings.append(contentsOf: polygon.holes.map(PreparedRing.init))
            ranges.append(start..<rings.count)
        }
        self.rings = rings
        polygonRings = ranges
    }

    /// Locates `point`; the same answer as `Region.locate`, faster on rings with many vertices.
    @inlinable
    public func locate(_ point: PixelPoint) -> PointLocation {
        combineRingLocations(polygonCount: polygonRings.count, rings: { polygonRings[$0] }, locateRing: { rings[$0].locate(point) })
    }
}
