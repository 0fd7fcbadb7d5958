// Measures the two region indexes the geometry issue names, on the validate benchmark's data:
// the uniform grid PlanMark uses (`RegionIndex`) and a packed STR R-tree over the same boxes. Both
// answer "which regions' boxes hold this point"; locating the point in each candidate is the same
// work either way, so the candidate search is what is compared, and the answers are checked equal.
import Dispatch
import PlanMarkFormats
import PlanMarkGeometry

/// A static R-tree packed by Sort-Tile-Recursive (Leutenegger et al.), `fanout` boxes a node.
struct PackedRTree {
    var levels: [[BoundingBox]] = []   // levels[0]: the leaves (region boxes in STR order)
    var leafRegion: [Int32] = []
    let fanout: Int

    /// - Complexity: O(n log n) to build.
    init(_ boxes: [BoundingBox], fanout: Int = 16) {
        self.fanout = fanout
        var order = Array(0..<boxes.count)
        func centreX(_ b: BoundingBox) -> Double { b.minX + b.maxX }
        func centreY(_ b: BoundingBox) -> Double { b.minY + b.maxY }
        order.sort { centreX(boxes[$0]) < centreX(boxes[$1]) }
        let leaves = (boxes.count + fanout - 1) / fanout
        let slices = Int(Double(leaves).squareRoot().rounded(.up))
        let perSlice = slices * fanout
        var sorted: [Int] = []
        var start = 0
        while start < order.count {
            let slice = order[start..<min(order.count, start + perSlice)].sorted { centreY(boxes[$0]) < centreY(boxes[$1]) }
            sorted.append(contentsOf: slice)
            start += perSlice
        }
        leafRegion = sorted.map(Int32.init)
        var level = sorted.map { boxes[$0] }
        levels.append(level)
        while level.count > 1 {
            var parents: [BoundingBox] = []
            for chunk in stride(from: 0, to: level.count, by: fanout) {
                var box = level[chunk]
                for k in (chunk + 1)..<min(level.count, chunk + fanout) { box.formUnion(level[k]) }
                parents.append(box)
            }
            levels.append(parents)
            level = parents
        }
    }

    /// Calls `body` with every region whose box holds `point`.
    /// - Complexity: O(log n + k) for well-separated boxes.
    func forEachCandidate(_ point: PixelPoint, _ body: (Int) -> Void) {
        func visit(_ level: Int, _ index: Int) {
            guard levels[level][index].contains(point) else { return }
            if level == 0 {
                body(Int(leafRegion[index]))
                return
            }
            let first = index * fanout
            for child in first..<min(levels[level - 1].count, first + fanout) { visit(level - 1, child) }
        }
        visit(levels.count - 1, 0)
    }
}

let data = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "../data"
let regions = try RegionsFile.read(path: data + "/regions.geojson")
var reader = try MarkerFileReader(path: data + "/markers.csv", format: .csv, conversion: nil)
let points = try reader.readAll().compactMap(\.position)
print("\(regions.count) regions, \(points.count) markers")

func time(_ label: String, _ body: () -> Int) {
    var best = Double.infinity
    var result = 0
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        result = body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    print("\(label): best of 5 \(String(Int(best * 1000))) ms (checksum \(result))")
}

let gridStart = DispatchTime.now().uptimeNanoseconds
let grid = RegionIndex(regions)
print("grid build: \((DispatchTime.now().uptimeNanoseconds - gridStart) / 1_000_000) ms (includes preparing every ring)")
let treeStart = DispatchTime.now().uptimeNanoseconds
let tree = PackedRTree(regions.map(\.bounds))
print("R-tree build: \((DispatchTime.now().uptimeNanoseconds - treeStart) / 1_000_000) ms (boxes only)")
let prepared = regions.map(PreparedRegion.init)

// Whole lookups: candidates and point location, one core.
time("grid: candidates + location") {
    var hits = 0
    for point in points { grid.forEachRegion(containing: point) { index, _ in hits &+= index + 1 } }
    return hits
}
time("R-tree: candidates + location") {
    var hits = 0
    for point in points {
        tree.forEachCandidate(point) { index in
            if prepared[index].locate(point) != .outside { hits &+= index + 1 }
        }
    }
    return hits
}
// The candidate search alone.
let boxes = regions.map(\.bounds)
time("R-tree: candidate boxes only") {
    var count = 0
    for point in points { tree.forEachCandidate(point) { count &+= $0 } }
    return count
}
