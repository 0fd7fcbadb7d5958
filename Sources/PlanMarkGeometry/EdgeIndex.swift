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

/// A region prepared for repeated point location (each ring a `PreparedRing`).
public struct PreparedRegion: Sendable {
    /// The region itself.
    public let region: Region
    @usableFromInline let polygons: [(exterior: PreparedRing, holes: [PreparedRing])]

    /// Prepares every ring of `region`.
    /// - Complexity: O(n) for n vertices.
    public init(_ region: Region) {
        self.region = region
        polygons = region.polygons.map { (PreparedRing($0.exterior), $0.holes.map(PreparedRing.init)) }
    }

    /// Locates `point`; the same answer as `Region.locate`, faster on rings with many vertices.
    @inlinable
    public func locate(_ point: PixelPoint) -> PointLocation {
        var result = PointLocation.outside
        polygonLoop: for polygon in polygons {
            switch polygon.exterior.locate(point) {
            case .outside: continue
            case .boundary: result = .boundary
            case .inside:
                for hole in polygon.holes {
                    switch hole.locate(point) {
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
}
