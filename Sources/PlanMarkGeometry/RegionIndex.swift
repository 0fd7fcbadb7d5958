/// An index for locating many points among many regions: a uniform grid over the regions' boxes
/// (each cell lists, in region order, the regions whose box overlaps it), over packed copies of
/// every ring, band index included, so a lookup touches a few contiguous arrays and no reference
/// counts.
///
/// A grid suits floor plans: rooms tile the sheet with similar sizes, so cells hold a handful of
/// regions each and a lookup is two multiplications and one slice.
public struct RegionIndex: Sendable {
    /// The regions, in the order they were given.
    public let regions: [Region]
    @usableFromInline let storage: PackedRegions

    /// Builds the index over `regions`.
    /// - Complexity: O(n + c) for n vertices and c (region, cell) pairs; about four cells a region.
    public init(_ regions: [Region]) {
        self.regions = regions
        storage = PackedRegions(regions)
    }

    /// Calls `body` with the index and location of every region that `point` is inside of or on,
    /// in region order.
    /// - Complexity: O(k * m) for k regions in the point's cell and m edges tested in each.
    @inlinable
    public func forEachRegion(containing point: PixelPoint, _ body: (Int, PointLocation) -> Void) {
        storage.forEachRegion(containing: point, body)
    }
}

/// One ring inside `PackedRegions`: ranges into its shared arrays.
@usableFromInline
struct PackedRing {
    @usableFromInline var vertices: Range<Int>
    @usableFromInline var bounds: BoundingBox
    @usableFromInline var bandStarts: Range<Int>
    @usableFromInline var bandEdges: Range<Int>
    @usableFromInline var bandScale: Double
}

/// The packed data of a `RegionIndex`. Written once in `init`, read-only afterwards (hence
/// `@unchecked Sendable`); owns its buffers.
@usableFromInline
final class PackedRegions: @unchecked Sendable {
    @usableFromInline let vertices: UnsafeMutableBufferPointer<PixelPoint>
    @usableFromInline let rings: UnsafeMutableBufferPointer<PackedRing>
    @usableFromInline let bandStarts: UnsafeMutableBufferPointer<Int32>
    @usableFromInline let bandEdges: UnsafeMutableBufferPointer<Int32>
    /// The rings of each polygon, as ranges of `rings`.
    @usableFromInline let polygonRings: UnsafeMutableBufferPointer<Range<Int>>
    /// The polygons of each region, as ranges of `polygonRings`.
    @usableFromInline let regionPolygons: UnsafeMutableBufferPointer<Range<Int>>
    @usableFromInline let regionBounds: UnsafeMutableBufferPointer<BoundingBox>
    @usableFromInline let cellStarts: UnsafeMutableBufferPointer<Int32>
    @usableFromInline let cellRegions: UnsafeMutableBufferPointer<Int32>
    @usableFromInline let bounds: BoundingBox
    @usableFromInline let columns: Int
    @usableFromInline let rows: Int
    @usableFromInline let scaleX: Double
    @usableFromInline let scaleY: Double

    init(_ regions: [Region]) {
        var vertices: [PixelPoint] = []
        var rings: [PackedRing] = []
        var bandStarts: [Int32] = []
        var bandEdges: [Int32] = []
        var polygonRings: [Range<Int>] = []
        var regionPolygons: [Range<Int>] = []
        for region in regions {
            let firstPolygon = polygonRings.count
            for polygon in region.polygons {
                let firstRing = rings.count
                for ring in [polygon.exterior] + polygon.holes {
                    let prepared = PreparedRing(ring)
                    let v = vertices.count, s = bandStarts.count, e = bandEdges.count
                    vertices.append(contentsOf: prepared.vertices)
                    bandStarts.append(contentsOf: prepared.bandStarts)
                    bandEdges.append(contentsOf: prepared.bandEdges)
                    rings.append(PackedRing(vertices: v..<vertices.count, bounds: prepared.bounds,
                                            bandStarts: s..<bandStarts.count, bandEdges: e..<bandEdges.count,
                                            bandScale: prepared.bandScale))
                }
                polygonRings.append(firstRing..<rings.count)
            }
            regionPolygons.append(firstPolygon..<polygonRings.count)
        }

        // The grid.
        var box = regions.first?.bounds ?? BoundingBox(minX: 0, minY: 0, maxX: -1, maxY: -1)
        for region in regions.dropFirst() { box.formUnion(region.bounds) }
        let width = max(box.maxX - box.minX, .leastNormalMagnitude)
        let height = max(box.maxY - box.minY, .leastNormalMagnitude)
        let cells = Double(max(1, min(regions.count * 4, 1 << 20)))
        let cellSide = (width * height / cells).squareRoot()
        let columns = regions.isEmpty ? 1 : max(1, min(4096, Int((width / cellSide).rounded(.up))))
        let rows = regions.isEmpty ? 1 : max(1, min(4096, Int((height / cellSide).rounded(.up))))
        let scaleX = Double(columns) / width
        let scaleY = Double(rows) / height
        func column(_ x: Double) -> Int { min(columns - 1, max(0, Int((x - box.minX) * scaleX))) }
        func row(_ y: Double) -> Int { min(rows - 1, max(0, Int((y - box.minY) * scaleY))) }
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        for region in regions {
            for r in row(region.bounds.minY)...row(region.bounds.maxY) {
                for c in column(region.bounds.minX)...column(region.bounds.maxX) { counts[r * columns + c + 1] += 1 }
            }
        }
        for k in 0..<(columns * rows) { counts[k + 1] += counts[k] }
        var fill = counts
        var members = [Int32](repeating: 0, count: Int(counts[columns * rows]))
        for (index, region) in regions.enumerated() {
            for r in row(region.bounds.minY)...row(region.bounds.maxY) {
                for c in column(region.bounds.minX)...column(region.bounds.maxX) {
                    members[Int(fill[r * columns + c])] = Int32(index)
                    fill[r * columns + c] += 1
                }
            }
        }

        func copy<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, array.count))
            _ = buffer.initialize(from: array)
            return UnsafeMutableBufferPointer(rebasing: buffer[0..<array.count])
        }
        self.vertices = copy(vertices)
        self.rings = copy(rings)
        self.bandStarts = copy(bandStarts)
        self.bandEdges = copy(bandEdges)
        self.polygonRings = copy(polygonRings)
        self.regionPolygons = copy(regionPolygons)
        self.regionBounds = copy(regions.map(\.bounds))
        self.cellStarts = copy(counts)
        self.cellRegions = copy(members)
        self.bounds = box
        self.columns = columns
        self.rows = rows
        self.scaleX = scaleX
        self.scaleY = scaleY
    }

    deinit {
        // Every buffer was allocated with at least one element at its base address.
        for base in [UnsafeMutableRawPointer(vertices.baseAddress), UnsafeMutableRawPointer(rings.baseAddress),
                     UnsafeMutableRawPointer(bandStarts.baseAddress), UnsafeMutableRawPointer(bandEdges.baseAddress),
                     UnsafeMutableRawPointer(polygonRings.baseAddress), UnsafeMutableRawPointer(regionPolygons.baseAddress),
                     UnsafeMutableRawPointer(regionBounds.baseAddress), UnsafeMutableRawPointer(cellStarts.baseAddress),
                     UnsafeMutableRawPointer(cellRegions.baseAddress)] {
            base?.deallocate()
        }
    }

    @inlinable
    func locate(_ point: PixelPoint, region: Int) -> PointLocation {
        let polygons = regionPolygons[region]
        return combineRingLocations(
            polygonCount: polygons.count,
            rings: { polygonRings[polygons.lowerBound + $0] },
            locateRing: { k in
                let ring = rings[k]
                return RingView(
                    vertices: UnsafeBufferPointer(rebasing: vertices[ring.vertices]), bounds: ring.bounds,
                    bandStarts: UnsafeBufferPointer(rebasing: bandStarts[ring.bandStarts]),
                    bandEdges: UnsafeBufferPointer(rebasing: bandEdges[ring.bandEdges]), bandScale: ring.bandScale
                ).locate(point)
            })
    }

    @inlinable
    func forEachRegion(containing point: PixelPoint, _ body: (Int, PointLocation) -> Void) {
        guard bounds.contains(point) else { return }
        let column = min(columns - 1, max(0, Int((point.x - bounds.minX) * scaleX)))
        let row = min(rows - 1, max(0, Int((point.y - bounds.minY) * scaleY)))
        let cell = row * columns + column
        for slot in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
            let index = Int(cellRegions[slot])
            guard regionBounds[index].contains(point) else { continue }
            let location = locate(point, region: index)
            if location != .outside { body(index, location) }
        }
    }
}
