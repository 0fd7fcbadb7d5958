/// A ring prepared for repeated point location. Rings with many vertices (curved walls) get an
/// index of their edges' y-ranges (`EdgeIndex`), so that a query reads only the edges a ray cast
/// along +x has to see: those whose closed y-range holds the point's y (crossing, on-edge,
/// horizontal edge or vertex hit). Every other edge leaves the ray-crossing count unchanged, so the
/// answer is the same as a cast over all edges, bit for bit.
public struct PreparedRing: Sendable {
    /// The ring's vertices.
    @usableFromInline let vertices: [PixelPoint]
    /// The ring's box.
    @usableFromInline let bounds: BoundingBox
    /// The edge index; empty for small rings.
    @usableFromInline let index: EdgeIndex

    /// Rings with at least this many vertices get an edge index.
    public static let indexThreshold = 32

    /// Prepares `ring`.
    /// - Complexity: O(n log n) time and O(n) memory for n vertices, whatever the ring's shape
    ///   (see `EdgeIndex`).
    public init(_ ring: Ring) {
        vertices = ring.vertices
        bounds = ring.bounds
        index = vertices.count >= Self.indexThreshold ? EdgeIndex(vertices, bounds: bounds) : EdgeIndex()
    }

    /// The rings of `region` seen as one set of edges, for regions with many rings. Each ring's
    /// vertices are followed by a copy of its first (so edge `i` runs from vertex `i` to `i + 1`),
    /// and the edge from such a copy to the next ring's first vertex is left out of the index, which
    /// is always built. A ray cast over this set answers for the whole region: on any edge is
    /// boundary, else an odd number of crossings is inside, because a valid region's rings do not
    /// meet and nest outer ring, hole, outer ring... (see `Region.init(id:kind:name:polygons:)`).
    /// - Complexity: O(n log n) time and O(n) memory for n vertices in all rings.
    init(combining region: Region) {
        var vertices: [PixelPoint] = []
        var edges: [Int32] = []
        for polygon in region.polygons {
            for ring in [polygon.exterior] + polygon.holes {
                let first = vertices.count
                vertices.append(contentsOf: ring.vertices)
                vertices.append(ring.vertices[0])
                edges.append(contentsOf: (first..<(first + ring.vertices.count)).map { Int32($0) })
            }
        }
        self.vertices = vertices
        bounds = region.bounds
        index = EdgeIndex(vertices, bounds: bounds, edges: edges)
    }

    /// Which kind of index the ring got (for tests and benchmarks).
    public var indexKind: EdgeIndex.Kind { index.kind }

    /// Locates `point` against the ring.
    /// - Complexity: O(n) for a ring under `indexThreshold` vertices (so O(1)); else O(log n + k)
    ///   for the k edges whose y-range holds the point's y (see `EdgeIndex`).
    @inlinable
    public func locate(_ point: PixelPoint) -> PointLocation {
        vertices.withUnsafeBufferPointer { v in
            index.starts.withUnsafeBufferPointer { starts in
                index.bandEdges.withUnsafeBufferPointer { edges in
                    index.centers.withUnsafeBufferPointer { centers in
                        index.low.withUnsafeBufferPointer { low in
                            index.high.withUnsafeBufferPointer { high in
                                RingView(vertices: v, bounds: bounds, starts: starts, bandEdges: edges,
                                         bandScale: index.bandScale, centers: centers, low: low, high: high)
                                    .locate(point)
                            }
                        }
                    }
                }
            }
        }
    }
}

/// One edge in an interval-tree node's list: the edge number and the end of its y-range the list
/// is sorted by.
@usableFromInline
struct EdgeEnd: Sendable {
    @usableFromInline var y: Double
    @usableFromInline var edge: Int32

    @inlinable init(y: Double, edge: Int32) {
        self.y = y
        self.edge = edge
    }
}

/// An index of a ring's edges by their closed y-ranges, built in one of two forms.
///
/// - **Bands** (the fast form, kept whenever it is cheap): the ring's height cut into `n / 2`
///   horizontal bands, each listing the edges whose y-range meets it. An edge is listed in every
///   band it spans, so a tall edge (combs, stars, zigzags, spirals) costs many entries; the
///   (edge, band) pairs are counted first in O(n), and bands are used only when they are at most
///   `maxBandEntriesPerEdge * n` in all and no band lists more than `maxEdgesPerBand` edges.
///   Then a query reads one band: O(1) index work and at most `maxEdgesPerBand` edges.
/// - **Interval tree** otherwise: a static centred interval tree over the y-ranges. Its nodes are
///   the distinct vertex ys, sorted, as an implicit balanced search tree (node `m` of the range
///   `l..<r` is its middle, `(l + r) / 2`); each edge sits at the first node on the way down whose y
///   its range holds, once in a list sorted by low end and once in one sorted by high end. A query
///   walks one root-to-leaf path and, at each node, reads from the list on its side exactly the
///   edges whose range holds y, stopping at the first that does not. Flat arrays throughout.
///
/// - Complexity: building, O(n log n) time and O(n) memory for n edges whatever the shape (bands:
///   O(n) entries by the rule above; tree: 2n entries and at most n nodes). A query: O(log n + k)
///   for the k edges whose closed y-range holds the point's y (tree: at most log2(n) + 1 nodes; bands:
///   O(1), as a band holds at most `maxEdgesPerBand` edges).
public struct EdgeIndex: Sendable {
    /// Which form an index has.
    public enum Kind: Sendable, Hashable {
        /// No index: the ring is small and read whole.
        case none
        /// Horizontal bands.
        case bands
        /// A centred interval tree.
        case intervalTree
    }

    /// Bands: a band index is used only when its (edge, band) pairs are at most this many per edge.
    public static let maxBandEntriesPerEdge = 4
    /// Bands: a band index is used only when no band lists more edges than this.
    public static let maxEdgesPerBand = 48

    /// Bands: band `b` lists `bandEdges[starts[b] ..< starts[b + 1]]`. Tree: node `m` lists
    /// `low[starts[m] ..< starts[m + 1]]` (and the same slots of `high`).
    @usableFromInline var starts: [Int32] = []
    /// Bands: the edges of each band, band after band.
    @usableFromInline var bandEdges: [Int32] = []
    /// Bands: bands per pixel of height; 0 when the index is not bands.
    @usableFromInline var bandScale: Double = 0
    /// Tree: the y of each node, sorted; empty when the index is not a tree.
    @usableFromInline var centers: [Double] = []
    /// Tree: each node's edges by increasing low end.
    @usableFromInline var low: [EdgeEnd] = []
    /// Tree: each node's edges by decreasing high end.
    @usableFromInline var high: [EdgeEnd] = []

    /// No index.
    init() {}

    /// Indexes the edges of the ring `vertices` (edge `i` runs from vertex `i` to `i + 1`, the last
    /// back to vertex 0), whose box is `bounds`.
    /// - Complexity: O(n log n) time, O(n) memory.
    init(_ vertices: [PixelPoint], bounds: BoundingBox) {
        self.init(vertices, bounds: bounds, edges: (0..<vertices.count).map { Int32($0) })
    }

    /// Indexes the edges that start at the vertices `edges` (edge `i` runs from vertex `i` to
    /// `i + 1`, the last vertex back to vertex 0).
    /// - Complexity: O(n log n) time, O(n) memory for n vertices.
    init(_ vertices: [PixelPoint], bounds: BoundingBox, edges edgeList: [Int32]) {
        let n = edgeList.count
        let height = bounds.maxY - bounds.minY
        guard n > 0 else { return }
        let vertexCount = vertices.count
        func ys(_ i: Int) -> (Double, Double) {
            let a = vertices[i].y, b = vertices[i + 1 == vertexCount ? 0 : i + 1].y
            return a < b ? (a, b) : (b, a)
        }
        // Bands, if cheap: count the pairs without listing them.
        let bandCount = max(1, n / 2)
        let scale = Double(bandCount) / height
        let minY = bounds.minY
        func band(_ y: Double) -> Int { min(bandCount - 1, max(0, Int((y - minY) * scale))) }
        var pairs = Int.max
        if height > 0 && height.isFinite && scale.isFinite {
            pairs = 0
            for edge in edgeList {
                let (a, b) = ys(Int(edge))
                pairs += band(b) - band(a) + 1
            }
        }
        if pairs <= Self.maxBandEntriesPerEdge * n {
            // Edges per band, from a difference array: O(n + bands).
            var counts = [Int32](repeating: 0, count: bandCount + 1)
            for edge in edgeList {
                let (a, b) = ys(Int(edge))
                counts[band(a)] += 1
                counts[band(b) + 1] -= 1
            }
            var running: Int32 = 0, fullest: Int32 = 0
            for k in 0..<bandCount {
                running += counts[k]
                counts[k] = running
                fullest = max(fullest, running)
            }
            if fullest <= Int32(Self.maxEdgesPerBand) {
                var starts = [Int32](repeating: 0, count: bandCount + 1)
                for k in 0..<bandCount { starts[k + 1] = starts[k] + counts[k] }
                var fill = starts
                var edges = [Int32](repeating: 0, count: pairs)
                for edge in edgeList {
                    let (a, b) = ys(Int(edge))
                    for k in band(a)...band(b) {
                        edges[Int(fill[k])] = edge
                        fill[k] += 1
                    }
                }
                self.starts = starts
                bandEdges = edges
                bandScale = scale
                return
            }
        }
        // The interval tree. Nodes: the distinct vertex ys, sorted (every range end is one).
        var centers = vertices.map(\.y)
        centers.sort()
        var unique = 0
        for y in centers where unique == 0 || centers[unique - 1] != y {
            centers[unique] = y
            unique += 1
        }
        centers.removeSubrange(unique...)
        // Each edge's node: the first on the way down whose y its range holds.
        var node = [Int32](repeating: 0, count: vertexCount)
        var counts = [Int32](repeating: 0, count: unique + 1)
        for edge in edgeList {
            let i = Int(edge)
            let (a, b) = ys(i)
            var l = 0, r = unique
            while l < r {
                let mid = (l + r) >> 1
                let c = centers[mid]
                if b < c {
                    r = mid
                } else if a > c {
                    l = mid + 1
                } else {
                    node[i] = Int32(mid)
                    counts[mid + 1] += 1
                    break
                }
            }
        }
        for k in 0..<unique { counts[k + 1] += counts[k] }
        // Lists: the edges sorted once by each end, then dealt to their nodes in that order.
        var byLow = edgeList.map { Int($0) }, byHigh = byLow
        byLow.sort { ys($0).0 < ys($1).0 }
        byHigh.sort { ys($0).1 > ys($1).1 }
        var low = [EdgeEnd](repeating: EdgeEnd(y: 0, edge: 0), count: n)
        var high = low
        var fill = counts
        for i in byLow {
            let k = Int(node[i])
            low[Int(fill[k])] = EdgeEnd(y: ys(i).0, edge: Int32(i))
            fill[k] += 1
        }
        fill = counts
        for i in byHigh {
            let k = Int(node[i])
            high[Int(fill[k])] = EdgeEnd(y: ys(i).1, edge: Int32(i))
            fill[k] += 1
        }
        self.starts = counts
        self.centers = centers
        self.low = low
        self.high = high
    }

    /// Which form this index has.
    public var kind: Kind { bandScale > 0 ? .bands : (centers.isEmpty ? .none : .intervalTree) }

    /// Entries held: (edge, band) pairs, or twice the edges for a tree (each edge is in two lists).
    public var entryCount: Int { bandEdges.count + low.count + high.count }
}

/// A ring's data seen through pointers, so that locating a point costs no reference counting.
/// `PreparedRing` and the packed region index both locate through it.
@usableFromInline
struct RingView {
    @usableFromInline let vertices: UnsafeBufferPointer<PixelPoint>
    @usableFromInline let bounds: BoundingBox
    /// `EdgeIndex.starts`: band or node offsets; empty when the ring has no index.
    @usableFromInline let starts: UnsafeBufferPointer<Int32>
    @usableFromInline let bandEdges: UnsafeBufferPointer<Int32>
    /// Positive for a band index.
    @usableFromInline let bandScale: Double
    @usableFromInline let centers: UnsafeBufferPointer<Double>
    @usableFromInline let low: UnsafeBufferPointer<EdgeEnd>
    @usableFromInline let high: UnsafeBufferPointer<EdgeEnd>

    @inlinable
    init(vertices: UnsafeBufferPointer<PixelPoint>, bounds: BoundingBox, starts: UnsafeBufferPointer<Int32>,
         bandEdges: UnsafeBufferPointer<Int32>, bandScale: Double, centers: UnsafeBufferPointer<Double>,
         low: UnsafeBufferPointer<EdgeEnd>, high: UnsafeBufferPointer<EdgeEnd>) {
        self.vertices = vertices
        self.bounds = bounds
        self.starts = starts
        self.bandEdges = bandEdges
        self.bandScale = bandScale
        self.centers = centers
        self.low = low
        self.high = high
    }

    /// Locates `point` against the ring by ray crossing, reading only the edges the index gives.
    /// - Complexity: O(n) unindexed (n < 32); O(1 + edges in the point's band) with bands (at most
    ///   `EdgeIndex.maxEdgesPerBand`); O(log n + k) with the tree, k the edges whose y-range holds y.
    @inlinable
    func locate(_ point: PixelPoint) -> PointLocation {
        guard bounds.contains(point) else { return .outside }
        var counter = RayCrossingCounter(point)
        let n = vertices.count
        if starts.isEmpty {
            var previous = vertices[n - 1]
            for vertex in vertices {
                counter.count(previous, vertex)
                if counter.onBoundary { return .boundary }
                previous = vertex
            }
        } else if bandScale > 0 {
            let bandCount = starts.count - 1
            let band = min(bandCount - 1, max(0, Int((point.y - bounds.minY) * bandScale)))
            for slot in Int(starts[band])..<Int(starts[band + 1]) {
                let i = Int(bandEdges[slot])
                counter.count(vertices[i], vertices[i + 1 == n ? 0 : i + 1])
                if counter.onBoundary { return .boundary }
            }
        } else {
            let y = point.y
            var l = 0, r = centers.count
            while l < r {
                let mid = (l + r) >> 1
                let c = centers[mid]
                let first = Int(starts[mid]), end = Int(starts[mid + 1])
                if y < c {
                    // Every edge here reaches up to c > y: those starting at or below y hold it.
                    for slot in first..<end {
                        let entry = low[slot]
                        if entry.y > y { break }
                        let i = Int(entry.edge)
                        counter.count(vertices[i], vertices[i + 1 == n ? 0 : i + 1])
                        if counter.onBoundary { return .boundary }
                    }
                    r = mid
                } else if y > c {
                    for slot in first..<end {
                        let entry = high[slot]
                        if entry.y < y { break }
                        let i = Int(entry.edge)
                        counter.count(vertices[i], vertices[i + 1 == n ? 0 : i + 1])
                        if counter.onBoundary { return .boundary }
                    }
                    l = mid + 1
                } else {
                    // y is this node's: every edge here holds it, and none below does.
                    for slot in first..<end {
                        let i = Int(low[slot].edge)
                        counter.count(vertices[i], vertices[i + 1 == n ? 0 : i + 1])
                        if counter.onBoundary { return .boundary }
                    }
                    break
                }
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

/// A region prepared for repeated point location: each ring a `PreparedRing`, or, for a region of
/// more than `combinedRingThreshold` rings (many holes or polygons), all rings as one indexed set of
/// edges (`PreparedRing(combining:)`), so that a lookup does not visit every ring.
public struct PreparedRegion: Sendable {
    /// The region itself.
    public let region: Region
    /// Every ring, polygon by polygon, outer ring first (or the one combined ring).
    @usableFromInline let rings: [PreparedRing]
    /// The rings of each polygon, as ranges of `rings` (one range when combined).
    @usableFromInline let polygonRings: [Range<Int>]

    /// Regions with more rings than this are located through one index over all their edges.
    public static let combinedRingThreshold = 8

    /// Prepares every ring of `region`.
    /// - Complexity: O(n log n) time and O(n) memory for n vertices in all rings (see `EdgeIndex`).
    public init(_ region: Region) {
        self.region = region
        let ringCount = region.polygons.reduce(0) { $0 + 1 + $1.holes.count }
        if ringCount > Self.combinedRingThreshold {
            rings = [PreparedRing(combining: region)]
            polygonRings = [0..<1]
            return
        }
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
    /// - Complexity: O(log n + k) for n vertices and the k edges whose y-range holds the point's y
    ///   (times at most `combinedRingThreshold` rings).
    @inlinable
    public func locate(_ point: PixelPoint) -> PointLocation {
        combineRingLocations(polygonCount: polygonRings.count, rings: { polygonRings[$0] }, locateRing: { rings[$0].locate(point) })
    }
}
