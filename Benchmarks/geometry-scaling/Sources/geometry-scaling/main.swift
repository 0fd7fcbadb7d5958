// One adversarial shape at one size: builds the region (ring checks and region checks), prepares it
// (edge index), locates random points, and prints one line:
//   shape vertices rings index validate-ms index-ms locate-ms queries mean-k checksum
// `run.sh` runs it once per shape and size under /usr/bin/time -v for the peak memory.
import Dispatch
import Foundation
import PlanMarkGeometry

/// SplitMix64, so every run sees the same shapes and points.
struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The rings of `shape` with about `size` vertices in all (the first the outer ring): the geometry tests'
/// `AdversarialShape` (AdversarialShape.swift links to Tests/PlanMarkGeometryTests/AdversarialShape.swift).
/// `sliver` is the diagonal sliver and `holes` the room with a grid of columns.
func rings(_ shape: String, size: Int, _ g: inout Generator) -> [[PixelPoint]]? {
    let names: [String: AdversarialShape] = ["sliver": .diagonalSliver, "holes": .manyHoles]
    guard let adversarial = names[shape] ?? AdversarialShape(rawValue: shape) else { return nil }
    return adversarial.rings(size: size, using: &g)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let size = Int(arguments[2]) else {
    print("usage: geometry-scaling SHAPE SIZE [QUERIES]   (SHAPE: comb star zigzag spiral sliver holes)")
    exit(64)
}
let shape = arguments[1]
let queries = arguments.count > 3 ? Int(arguments[3]) ?? 100_000 : 100_000
var generator = Generator(state: 0x5CA1_AB1E)
guard let shapeRings = rings(shape, size: size, &generator) else {
    print("unknown shape \(shape)")
    exit(64)
}
func milliseconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }

var start = DispatchTime.now().uptimeNanoseconds
let region: Region
do {
    region = try Region(id: shape, coordinates: [shapeRings])
} catch {
    print("refused: \(error)")
    exit(65)
}
let validateMs = milliseconds(since: start)
start = DispatchTime.now().uptimeNanoseconds
let prepared = PreparedRegion(region)
let indexMs = milliseconds(since: start)
let kinds = Set(region.polygons.flatMap { [$0.exterior] + $0.holes }.count > PreparedRegion.combinedRingThreshold
    ? ["combined"] : region.polygons.flatMap { [$0.exterior] + $0.holes }.map { "\(PreparedRing($0).indexKind)" })

let box = region.bounds
var points: [PixelPoint] = []
points.reserveCapacity(queries)
for _ in 0..<queries {
    points.append(PixelPoint(x: Double.random(in: box.minX...box.maxX, using: &generator),
                             y: Double.random(in: box.minY...box.maxY, using: &generator)))
}
start = DispatchTime.now().uptimeNanoseconds
var checksum = 0
for point in points {
    switch prepared.locate(point) {
    case .inside: checksum &+= 2
    case .boundary: checksum &+= 1
    case .outside: break
    }
}
let locateMs = milliseconds(since: start)
// k: edges whose closed y-range holds the query's y, on a sample of 100 queries (what any ray cast
// has to look at).
var edgesHeld = 0
for point in points.prefix(100) {
    for ring in shapeRings {
        for i in ring.indices {
            let a = ring[i].y, b = ring[(i + 1) % ring.count].y
            if min(a, b) <= point.y && point.y <= max(a, b) { edgesHeld += 1 }
        }
    }
}
let vertices = shapeRings.reduce(0) { $0 + $1.count }
print(shape, vertices, shapeRings.count, kinds.sorted().joined(separator: "+"),
      String(format: "%.1f %.1f %.1f", validateMs, indexMs, locateMs), queries,
      String(format: "%.0f", Double(edgesHeld) / Double(min(100, queries))), checksum)
