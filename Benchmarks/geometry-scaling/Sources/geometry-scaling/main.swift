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

/// The rings of `shape` with about `size` vertices in all (the first the outer ring).
func rings(_ shape: String, size: Int, _ g: inout Generator) -> [[PixelPoint]]? {
    func jitter(_ scale: Double) -> Double { Double.random(in: 0..<1, using: &g) * scale }
    switch shape {
    case "comb":  // tall teeth: every tooth edge spans the whole height
        let teeth = max(2, size / 4)
        var ring = [PixelPoint(x: 0, y: -10), PixelPoint(x: Double(2 * teeth - 1), y: -10)]
        for i in (0..<teeth).reversed() {
            let x = Double(2 * i), top = 1000 + jitter(5)
            ring += [PixelPoint(x: x + 1, y: top), PixelPoint(x: x, y: top)]
            if i > 0 {
                let gap = jitter(0.5)
                ring += [PixelPoint(x: x, y: gap), PixelPoint(x: x - 1, y: gap)]
            }
        }
        return [ring]
    case "star":  // spikes through the centre
        let k = max(3, size / 2)
        return [(0..<(2 * k)).map { i in
            let angle = Double.pi * Double(i) / Double(k)
            let radius = i % 2 == 0 ? 1000 + jitter(50) : 1 + jitter(0.5)
            return PixelPoint(x: 2000 + radius * cos(angle), y: 2000 + radius * sin(angle))
        }]
    case "zigzag":  // a sawtooth whose every edge is tall
        let m = max(3, size - 2)
        var ring = (0...m).map { i in PixelPoint(x: Double(i), y: i % 2 == 0 ? 1 + jitter(0.5) : 5000 - jitter(10)) }
        ring += [PixelPoint(x: Double(m), y: -1), PixelPoint(x: 0, y: -1)]
        return [ring]
    case "spiral":  // two arms 5 px apart, 64 vertices a turn
        let perArm = max(16, size / 2)
        func arm(_ offset: Double) -> [PixelPoint] {
            (0..<perArm).map { i in
                let angle = 2 * Double.pi * Double(i) / 64
                let radius = 10 * angle / (2 * Double.pi) + offset + 20
                return PixelPoint(x: radius * cos(angle), y: radius * sin(angle))
            }
        }
        return [arm(5) + arm(0).reversed()]
    case "sliver":  // long, thin, diagonal
        let m = max(2, size / 2)
        let top = (0..<m).map { PixelPoint(x: Double($0) * 10, y: 7.5 * Double($0) + 0.01 + jitter(0.005)) }
        let bottom = (0..<m).map { PixelPoint(x: Double($0) * 10, y: 7.5 * Double($0) - 0.01 - jitter(0.005)) }
        return [top + bottom.reversed()]
    case "holes":  // a square room with a grid of square columns
        let side = max(1, Int(Double(size / 4).squareRoot()))
        let outer = Double(10 * side + 10)
        var rings = [[PixelPoint(x: 0, y: 0), PixelPoint(x: outer, y: 0), PixelPoint(x: outer, y: outer), PixelPoint(x: 0, y: outer)]]
        for i in 0..<side {
            for j in 0..<side {
                let x = Double(10 * i + 10), y = Double(10 * j + 10), d = 2 + jitter(3)
                rings.append([PixelPoint(x: x, y: y), PixelPoint(x: x + d, y: y), PixelPoint(x: x + d, y: y + 6), PixelPoint(x: x, y: y + 6)])
            }
        }
        return rings
    default:
        return nil
    }
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
