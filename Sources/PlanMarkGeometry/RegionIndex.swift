/// An index for locating many points among many regions: a uniform grid over the regions' boxes
/// (each cell lists, in region order, the regions whose box overlaps it), over packed copies of
/// every ring, edge index included (`EdgeIndex`), so a lookup touches a few contiguous arrays and no
/// reference counts.
///
/// A grid suits floor plans: rooms tile the sheet with similar sizes, so cells hold a handful of
/// regions each and a lookup is two multiplications and one slice. Its worst case is many large
/// regions overlapping every cell, which would make (region, cell) pairs grow as regions x cells,
/// that is quadratically: the grid is coarsened (cells quartered) until the pairs are at most
/// `8 * (v + r)` for v vertices and r regions; a single cell, one pair a region, always fits.
///
/// Each (cell, region) pair whose cell lies wholly inside the region is marked when the index is
/// built (an allowed area around the rooms, a room larger than a cell), so a point in that cell is
/// `inside` that region without a test; the verdict stays exact (see `PackedRegions.classifyCells`).
public struct RegionIndex: Sendable {
    /// The regions, in the order they were given.
    public let regions: [Region]
    @usableFromInline let storage: PackedRegions

    /// Builds the index over `regions`.
    /// - Complexity: O(v log v + r log r) time and O(v + r) memory for v vertices and r regions,
    ///   whatever their shapes and overlaps: each ring's `EdgeIndex` is O(n log n) time and O(n)
    ///   memory; the grid has at most about 4r + 8193 cells and at most 8 (v + r) (region, cell)
    ///   pairs, found by at most log4(4r) O(r) counting passes; marking the cells wholly inside a
    ///   region costs O(v + p) for p pairs and at most one point lookup a pair.
    public init(_ regions: [Region]) {
        self.regions = regions
        storage = PackedRegions(regions)
    }

    /// Calls `body` with the index and location of every region that `point` is inside of or on,
    /// in region order.
    /// - Complexity: O(sum over the c regions listed in the point's cell of their rings' lookups),
    ///   each ring O(log n + k) for k edges whose y-range holds the point's y (`EdgeIndex`); c is a
    ///   handful on floor plans, and at most r.
    @inlinable
    public func forEachRegion(containing point: PixelPoint, _ body: (Int, PointLocation) -> Void) {
        storage.forEachRegion(containing: point, body)
    }
}

/// One ring inside `PackedRegions`: ranges into its shared arrays (its `EdgeIndex`, packed).
@usableFromInline
struct PackedRing {
    @usableFromInline var vertices: Range<Int>
    @usableFromInline var bounds: BoundingBox
    @usableFromInline var starts: Range<Int>
    @usableFromInline var bandEdges: Range<Int>
    @usableFromInline var bandScale: Double
    @usableFromInline var centers: Range<Int>
    /// Both `low` and `high`.
    @usableFromInline var ends: Range<Int>
}

/// The packed data of a `RegionIndex`. Written once in `init`, read-only afterwards (hence
/// `@unchecked Sendable`); owns its buffers.
@usableFromInline
final class PackedRegions: @unchecked Sendable {
    @usableFromInline let vertices: UnsafeMutableBufferPointer<PixelPoint>
    @usableFromInline let rings: UnsafeMutableBufferPointer<PackedRing>
    @usableFromInline let starts: UnsafeMutableBufferPointer<Int32>
    @usableFromInline let bandEdges: UnsafeMutableBufferPointer<Int32>
    @usableFromInline let centers: UnsafeMutableBufferPointer<Double>
    @usableFromInline let low: UnsafeMutableBufferPointer<EdgeEnd>
    @usableFromInline let high: UnsafeMutableBufferPointer<EdgeEnd>
    /// The rings of each polygon, as ranges of `rings`.
    @usableFromInline let polygonRings: UnsafeMutableBufferPointer<Range<Int>>
    /// The polygons of each region, as ranges of `polygonRings`.
    @usableFromInline let regionPolygons: UnsafeMutableBufferPointer<Range<Int>>
    @usableFromInline let regionBounds: UnsafeMutableBufferPointer<BoundingBox>
    /// For a region of one polygon whose rings are all axis-parallel rectangles (`isBoxRing`): its
    /// rings' boxes in `boxes`, outer ring first; an empty range for any other region.
    @usableFromInline let regionBoxes: UnsafeMutableBufferPointer<Range<Int>>
    @usableFromInline let boxes: UnsafeMutableBufferPointer<BoundingBox>
    @usableFromInline let cellStarts: UnsafeMutableBufferPointer<Int32>
    @usableFromInline let cellRegions: UnsafeMutableBufferPointer<Int32>
    /// Parallel to `cellRegions`: 1 when every point that falls in the cell is strictly inside the
    /// region (`classifyCells`), so its location needs no test; 0 when it must be located.
    @usableFromInline let cellInside: UnsafeMutableBufferPointer<UInt8>
    /// Parallel to `cellRegions`: what a lookup reads of each (cell, region) pair, in one record, so a
    /// candidate costs one cache line rather than a load from each of four arrays.
    @usableFromInline let cellEntries: UnsafeMutableBufferPointer<CellEntry>
    @usableFromInline let bounds: BoundingBox
    @usableFromInline let columns: Int
    @usableFromInline let rows: Int
    @usableFromInline let scaleX: Double
    @usableFromInline let scaleY: Double

    init(_ regions: [Region]) {
        var vertices: [PixelPoint] = []
        var rings: [PackedRing] = []
        var starts: [Int32] = []
        var bandEdges: [Int32] = []
        var centers: [Double] = []
        var low: [EdgeEnd] = []
        var high: [EdgeEnd] = []
        var polygonRings: [Range<Int>] = []
        var regionPolygons: [Range<Int>] = []
        var regionBoxes: [Range<Int>] = []
        var boxes: [BoundingBox] = []
        for region in regions {
            let firstBox = boxes.count
            if region.polygons.count == 1, let polygon = region.polygons.first,
               ([polygon.exterior] + polygon.holes).allSatisfy(Self.isBoxRing) {
                boxes.append(polygon.exterior.bounds)
                boxes.append(contentsOf: polygon.holes.map(\.bounds))
            }
            regionBoxes.append(firstBox..<boxes.count)
            let firstPolygon = polygonRings.count
            let preparedRegion = PreparedRegion(region)
            for ringRange in preparedRegion.polygonRings {
                let firstRing = rings.count
                for prepared in preparedRegion.rings[ringRange] {
                    let index = prepared.index
                    let v = vertices.count, s = starts.count, e = bandEdges.count, c = centers.count, l = low.count
                    vertices.append(contentsOf: prepared.vertices)
                    starts.append(contentsOf: index.starts)
                    bandEdges.append(contentsOf: index.bandEdges)
                    centers.append(contentsOf: index.centers)
                    low.append(contentsOf: index.low)
                    high.append(contentsOf: index.high)
                    rings.append(PackedRing(vertices: v..<vertices.count, bounds: prepared.bounds,
                                            starts: s..<starts.count, bandEdges: e..<bandEdges.count,
                                            bandScale: index.bandScale, centers: c..<centers.count, ends: l..<low.count))
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
        // About four cells a region; fewer when the (region, cell) pairs would pass the budget
        // (many large regions overlapping every cell): the cell count is quartered until they fit,
        // and one cell always does (one pair a region).
        let vertexCount = vertices.count
        let budget = Self.pairsPerVertex * (vertexCount + regions.count)
        var target = max(1, min(regions.count * 4, 1 << 20))
        var columns = 1, rows = 1, scaleX = 1.0, scaleY = 1.0
        while true {
            let cellSide = (width * height / Double(target)).squareRoot()
            // (A box too small or too large for a double's range gives 4096 or 1 cells, never a trap.)
            func cells(_ side: Double) -> Int {
                let q = (side / cellSide).rounded(.up)
                return regions.isEmpty ? 1 : (q < 4096 ? max(1, Int(q)) : 4096)
            }
            let c = cells(width), r = cells(height)
            columns = c
            rows = r
            scaleX = Double(c) / width
            scaleY = Double(r) / height
            if (c == 1 && r == 1) || target == 1 { break }
            var pairs = 0
            for region in regions {
                let b = region.bounds
                pairs += (Self.cell(b.maxX, box.minX, scaleX, c) - Self.cell(b.minX, box.minX, scaleX, c) + 1)
                    * (Self.cell(b.maxY, box.minY, scaleY, r) - Self.cell(b.minY, box.minY, scaleY, r) + 1)
            }
            if pairs <= budget { break }
            target = max(1, target / 4)
        }
        if columns * rows > 1 && target == 1 {
            // The last quartering may still leave a thin grid of several cells; one cell fits.
            columns = 1
            rows = 1
            scaleX = 1 / width
            scaleY = 1 / height
        }
        let (finalColumns, finalRows, finalScaleX, finalScaleY) = (columns, rows, scaleX, scaleY)
        func column(_ x: Double) -> Int { Self.cell(x, box.minX, finalScaleX, finalColumns) }
        func row(_ y: Double) -> Int { Self.cell(y, box.minY, finalScaleY, finalRows) }
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
        self.starts = copy(starts)
        self.bandEdges = copy(bandEdges)
        self.centers = copy(centers)
        self.low = copy(low)
        self.high = copy(high)
        self.polygonRings = copy(polygonRings)
        self.regionPolygons = copy(regionPolygons)
        self.regionBounds = copy(regions.map(\.bounds))
        self.regionBoxes = copy(regionBoxes)
        self.boxes = copy(boxes)
        self.cellStarts = copy(counts)
        self.cellRegions = copy(members)
        self.bounds = box
        self.columns = columns
        self.rows = rows
        self.scaleX = scaleX
        self.scaleY = scaleY
        let inside = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, members.count))
        inside.initialize(repeating: 0)
        cellInside = UnsafeMutableBufferPointer(rebasing: inside[0..<members.count])
        let entries = UnsafeMutableBufferPointer<CellEntry>.allocate(capacity: max(1, members.count))
        cellEntries = UnsafeMutableBufferPointer(rebasing: entries[0..<members.count])
        classifyCells(regions)
        for slot in 0..<members.count {
            let region = Int(members[slot])
            let kind: UInt8 = cellInside[slot] != 0 ? CellEntry.wholeCell : (regionBoxes[region].count == 1 ? CellEntry.plainBox : CellEntry.locate)
            (cellEntries.baseAddress! + slot).initialize(to: CellEntry(bounds: regionBounds[region], region: Int32(region), kind: kind))
        }
    }

    /// Marks the (cell, region) pairs whose cell lies wholly inside the region (`cellInside`).
    ///
    /// Every point that falls in cell (c, r) lies in the cell's rectangle widened by `margin` on each
    /// side (the rounding of the cell computation is far below it). A cell is marked when no edge of
    /// the region comes within `margin` of it (each edge marks the cells its box, widened by twice the
    /// margin, overlaps) and its centre is located inside the region: the widened rectangle is then
    /// connected and holds no boundary point, so all of it is in the interior. Neighbouring unmarked
    /// cells of a row form one such connected set, so each run of them costs one lookup. A region whose
    /// edges would mark more than 2 (cells) + 8 (vertices) cells (long diagonal walls) is left unmarked.
    /// - Complexity: O(v + p) marks and at most one lookup a (region, cell) pair, for v vertices and
    ///   p pairs.
    private func classifyCells(_ regions: [Region]) {
        let margin = 1e-9 * (abs(bounds.minX) + abs(bounds.maxX) + abs(bounds.minY) + abs(bounds.maxY) + 1)
        let (minX, minY, scaleX, scaleY, columns, rows) = (bounds.minX, bounds.minY, self.scaleX, self.scaleY, self.columns, self.rows)
        func column(_ x: Double) -> Int { Self.cell(x, minX, scaleX, columns) }
        func row(_ y: Double) -> Int { Self.cell(y, minY, scaleY, rows) }
        // The next slot of each cell, in the order the regions were placed in `cellRegions`.
        var next = Array(cellStarts[0..<(columns * rows)])
        for (index, region) in regions.enumerated() {
            let b = region.bounds
            let c0 = column(b.minX), c1 = column(b.maxX), r0 = row(b.minY), r1 = row(b.maxY)
            let w = c1 - c0 + 1, h = r1 - r0 + 1
            var inside = [Bool](repeating: false, count: w * h)
            var touched = [Bool](repeating: false, count: w * h)
            let rings = region.polygons.flatMap { [$0.exterior] + $0.holes }
            var budget = 2 * w * h + 8 * rings.reduce(0) { $0 + $1.vertices.count }
            var marked = true
            edges: for ring in rings {
                let v = ring.vertices
                for k in v.indices {
                    let p = v[k], q = v[k + 1 == v.count ? 0 : k + 1]
                    let ec0 = max(c0, column(min(p.x, q.x) - 2 * margin)), ec1 = min(c1, column(max(p.x, q.x) + 2 * margin))
                    let er0 = max(r0, row(min(p.y, q.y) - 2 * margin)), er1 = min(r1, row(max(p.y, q.y) + 2 * margin))
                    guard ec0 <= ec1, er0 <= er1 else { continue }
                    budget -= (ec1 - ec0 + 1) * (er1 - er0 + 1)
                    if budget < 0 {
                        marked = false
                        break edges
                    }
                    for r in er0...er1 {
                        for c in ec0...ec1 { touched[(r - r0) * w + c - c0] = true }
                    }
                }
            }
            if marked {
                for r in r0...r1 {
                    var c = c0
                    while c <= c1 {
                        if touched[(r - r0) * w + c - c0] {
                            c += 1
                            continue
                        }
                        var e = c
                        while e < c1 && !touched[(r - r0) * w + e + 1 - c0] { e += 1 }
                        let centre = PixelPoint(x: minX + (Double(c) + 0.5) / scaleX, y: minY + (Double(r) + 0.5) / scaleY)
                        if locate(centre, region: index) == .inside {
                            for k in c...e { inside[(r - r0) * w + k - c0] = true }
                        }
                        c = e + 1
                    }
                }
            }
            for r in r0...r1 {
                for c in c0...c1 {
                    let cell = r * columns + c
                    if inside[(r - r0) * w + c - c0] { cellInside[Int(next[cell])] = 1 }
                    next[cell] += 1
                }
            }
        }
    }

    /// The grid keeps its (region, cell) pairs under this many per vertex and region.
    static let pairsPerVertex = 8

    /// The cell number of coordinate `value` on an axis starting at `origin` with `count` cells.
    static func cell(_ value: Double, _ origin: Double, _ scale: Double, _ count: Int) -> Int {
        min(count - 1, max(0, Int((value - origin) * scale)))
    }

    deinit {
        // Every buffer was allocated with at least one element at its base address.
        for base in [UnsafeMutableRawPointer(vertices.baseAddress), UnsafeMutableRawPointer(rings.baseAddress),
                     UnsafeMutableRawPointer(starts.baseAddress), UnsafeMutableRawPointer(bandEdges.baseAddress),
                     UnsafeMutableRawPointer(centers.baseAddress), UnsafeMutableRawPointer(low.baseAddress),
                     UnsafeMutableRawPointer(high.baseAddress),
                     UnsafeMutableRawPointer(polygonRings.baseAddress), UnsafeMutableRawPointer(regionPolygons.baseAddress),
                     UnsafeMutableRawPointer(regionBounds.baseAddress), UnsafeMutableRawPointer(cellStarts.baseAddress),
                     UnsafeMutableRawPointer(regionBoxes.baseAddress), UnsafeMutableRawPointer(boxes.baseAddress),
                     UnsafeMutableRawPointer(cellRegions.baseAddress), UnsafeMutableRawPointer(cellInside.baseAddress),
                     UnsafeMutableRawPointer(cellEntries.baseAddress)] {
            base?.deallocate()
        }
    }

    /// True when every edge of `ring` lies on one side of its bounding box. A valid ring (simple, of
    /// non-zero area) all of whose edges lie on its box's boundary is that boundary, so the ring is
    /// the rectangle, whatever collinear vertices (T-junctions) it has.
    /// - Complexity: O(n) for n vertices.
    static func isBoxRing(_ ring: Ring) -> Bool {
        let b = ring.bounds
        let v = ring.vertices
        guard v.count >= 4, b.minX < b.maxX, b.minY < b.maxY else { return false }
        for k in v.indices {
            let p = v[k], q = v[k + 1 == v.count ? 0 : k + 1]
            let onVertical = p.x == q.x && (p.x == b.minX || p.x == b.maxX)
            let onHorizontal = p.y == q.y && (p.y == b.minY || p.y == b.maxY)
            if !onVertical && !onHorizontal { return false }
        }
        return true
    }

    /// The location of `point` in a region of rectangles (`regionBoxes`): exact comparisons only.
    /// - Complexity: O(h) for h holes.
    @inlinable
    func locate(_ point: PixelPoint, boxes range: Range<Int>) -> PointLocation {
        let outer = boxes[range.lowerBound]
        guard outer.contains(point) else { return .outside }
        if point.x == outer.minX || point.x == outer.maxX || point.y == outer.minY || point.y == outer.maxY {
            return .boundary
        }
        for k in (range.lowerBound + 1)..<range.upperBound {
            let hole = boxes[k]
            guard hole.contains(point) else { continue }
            if point.x == hole.minX || point.x == hole.maxX || point.y == hole.minY || point.y == hole.maxY {
                return .boundary
            }
            return .outside
        }
        return .inside
    }

    @inlinable
    func locate(_ point: PixelPoint, region: Int) -> PointLocation {
        let boxRange = regionBoxes[region]
        if !boxRange.isEmpty { return locate(point, boxes: boxRange) }
        let polygons = regionPolygons[region]
        return combineRingLocations(
            polygonCount: polygons.count,
            rings: { polygonRings[polygons.lowerBound + $0] },
            locateRing: { k in
                let ring = rings[k]
                return RingView(
                    vertices: UnsafeBufferPointer(rebasing: vertices[ring.vertices]), bounds: ring.bounds,
                    starts: UnsafeBufferPointer(rebasing: starts[ring.starts]),
                    bandEdges: UnsafeBufferPointer(rebasing: bandEdges[ring.bandEdges]), bandScale: ring.bandScale,
                    centers: UnsafeBufferPointer(rebasing: centers[ring.centers]),
                    low: UnsafeBufferPointer(rebasing: low[ring.ends]), high: UnsafeBufferPointer(rebasing: high[ring.ends])
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
            let entry = cellEntries[slot]
            let index = Int(entry.region)
            if entry.kind == CellEntry.wholeCell {
                body(index, .inside)
                continue
            }
            let b = entry.bounds
            guard b.contains(point) else { continue }
            if entry.kind == CellEntry.plainBox {
                // One rectangle without holes: its box, exactly as `locate(_:boxes:)` decides.
                body(index, point.x == b.minX || point.x == b.maxX || point.y == b.minY || point.y == b.maxY ? .boundary : .inside)
                continue
            }
            let location = locate(point, region: index)
            if location != .outside { body(index, location) }
        }
    }
}

/// One (cell, region) pair of the grid as a lookup reads it.
@usableFromInline
struct CellEntry {
    /// The region's bounding box.
    @usableFromInline let bounds: BoundingBox
    /// The region's index.
    @usableFromInline let region: Int32
    /// `wholeCell`, `plainBox` or `locate`.
    @usableFromInline let kind: UInt8

    /// Every point that falls in the cell is inside the region (`PackedRegions.classifyCells`).
    @usableFromInline static let wholeCell: UInt8 = 1
    /// The region is one axis-parallel rectangle without holes: `bounds` itself.
    @usableFromInline static let plainBox: UInt8 = 2
    /// Any other pair: the region's rings are searched.
    @usableFromInline static let locate: UInt8 = 0

    @usableFromInline init(bounds: BoundingBox, region: Int32, kind: UInt8) {
        self.bounds = bounds
        self.region = region
        self.kind = kind
    }
}
