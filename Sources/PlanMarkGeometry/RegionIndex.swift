/// A uniform grid over the regions' boxes: each cell lists, in region order, the regions whose box
/// overlaps it, so a point is tested only against the few regions near it.
///
/// A grid suits floor plans: rooms tile the sheet with similar sizes, so cells hold a handful of
/// regions each and a lookup is two multiplications and one array slice.
public struct RegionIndex: Sendable {
    /// The prepared regions, in the order they were given.
    public let regions: [PreparedRegion]
    @usableFromInline let bounds: BoundingBox
    @usableFromInline let columns: Int
    @usableFromInline let rows: Int
    @usableFromInline let scaleX: Double
    @usableFromInline let scaleY: Double
    @usableFromInline let cellStarts: [Int32]
    @usableFromInline let cellRegions: [Int32]

    /// Builds the index over `regions`.
    /// - Complexity: O(n + c) for n vertices and c (region, cell) pairs; about four cells a region.
    public init(_ regions: [Region]) {
        self.regions = regions.map(PreparedRegion.init)
        guard let first = regions.first else {
            bounds = BoundingBox(minX: 0, minY: 0, maxX: -1, maxY: -1)
            columns = 0; rows = 0; scaleX = 0; scaleY = 0
            cellStarts = [0]; cellRegions = []
            return
        }
        var box = first.bounds
        for region in regions.dropFirst() { box.formUnion(region.bounds) }
        bounds = box
        let width = max(box.maxX - box.minX, .leastNormalMagnitude)
        let height = max(box.maxY - box.minY, .leastNormalMagnitude)
        let cells = Double(max(1, min(regions.count * 4, 1 << 20)))
        let cellSide = (width * height / cells).squareRoot()
        let columns = max(1, min(4096, Int((width / cellSide).rounded(.up))))
        let rows = max(1, min(4096, Int((height / cellSide).rounded(.up))))
        let scaleX = Double(columns) / width
        let scaleY = Double(rows) / height
        func column(_ x: Double) -> Int { min(columns - 1, max(0, Int((x - box.minX) * scaleX))) }
        func row(_ y: Double) -> Int { min(rows - 1, max(0, Int((y - box.minY) * scaleY))) }
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        func cellRange(_ r: Region) -> (ClosedRange<Int>, ClosedRange<Int>) {
            (column(r.bounds.minX)...column(r.bounds.maxX), row(r.bounds.minY)...row(r.bounds.maxY))
        }
        for region in regions {
            let (cs, rs) = cellRange(region)
            for r in rs { for c in cs { counts[r * columns + c + 1] += 1 } }
        }
        for k in 0..<(columns * rows) { counts[k + 1] += counts[k] }
        var fill = counts
        var members = [Int32](repeating: 0, count: Int(counts[columns * rows]))
        for (index, region) in regions.enumerated() {
            let (cs, rs) = cellRange(region)
            for r in rs {
                for c in cs {
                    members[Int(fill[r * columns + c])] = Int32(index)
                    fill[r * columns + c] += 1
                }
            }
        }
        self.columns = columns
        self.rows = rows
        self.scaleX = scaleX
        self.scaleY = scaleY
        cellStarts = counts
        cellRegions = members
    }

    @inlinable func column(_ x: Double) -> Int { min(columns - 1, max(0, Int((x - bounds.minX) * scaleX))) }
    @inlinable func row(_ y: Double) -> Int { min(rows - 1, max(0, Int((y - bounds.minY) * scaleY))) }

    /// Calls `body` with the index and location of every region that `point` is inside of or on,
    /// in region order.
    /// - Complexity: O(k * m) for k regions in the point's cell and m edges tested in each.
    @inlinable
    public func forEachRegion(containing point: PixelPoint, _ body: (Int, PointLocation) -> Void) {
        guard bounds.contains(point) else { return }
        let cell = row(point.y) * columns + column(point.x)
        for slot in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
            let index = Int(cellRegions[slot])
            let prepared = regions[index]
            guard prepared.region.bounds.contains(point) else { continue }
            let location = prepared.locate(point)
            if location != .outside { body(index, location) }
        }
    }
}
