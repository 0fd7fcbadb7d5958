// The adversarial shapes of the geometry tests, also compiled into Benchmarks/geometry-scaling (a link
// to this file there), so the benchmark measures exactly the shapes the tests check.
import Foundation
import PlanMarkGeometry

/// Shapes a hostile user would send: every edge tall (combs, stars, zigzags), many turns (spirals),
/// long and thin (slivers), many rings (holes). Each is built from the suite's seeded generator.
enum AdversarialShape: String, CaseIterable, Sendable {
    case comb, star, zigzag, spiral, sliver, diagonalSliver, manyHoles, combHoles

    /// The rings of the shape (the first the outer ring) with about `size` vertices in all.
    func rings<G: RandomNumberGenerator>(size: Int, using generator: inout G) -> [[PixelPoint]] {
        func jitter(_ scale: Double) -> Double { Double.random(in: 0..<1, using: &generator) * scale }
        switch self {
        case .comb:
            return [Self.comb(teeth: max(2, size / 4), height: 1000, jitter: jitter)]
        case .star:
            let k = max(3, size / 2)
            return [(0..<(2 * k)).map { i in
                let angle = Double.pi * Double(i) / Double(k)
                let radius = i % 2 == 0 ? 1000 + jitter(50) : 1 + jitter(0.5)
                return PixelPoint(x: 2000 + radius * cos(angle), y: 2000 + radius * sin(angle))
            }]
        case .zigzag:
            let m = max(3, size - 2)
            var ring = (0...m).map { i in PixelPoint(x: Double(i), y: i % 2 == 0 ? 1 + jitter(0.5) : 5000 - jitter(10)) }
            ring.append(PixelPoint(x: Double(m), y: -1))
            ring.append(PixelPoint(x: 0, y: -1))
            return [ring]
        case .spiral:
            // Two arms a pitch apart, 64 vertices a turn: outer r = 10 t + 5, inner r = 10 t.
            let perArm = max(16, size / 2)
            func arm(_ offset: Double) -> [PixelPoint] {
                (0..<perArm).map { i in
                    let angle = 2 * Double.pi * Double(i) / 64
                    let radius = 10 * angle / (2 * Double.pi) + offset + 20
                    return PixelPoint(x: radius * cos(angle), y: radius * sin(angle))
                }
            }
            return [arm(5) + arm(0).reversed()]
        case .sliver:
            let m = max(2, size / 2)
            let top = (0..<m).map { PixelPoint(x: Double($0) * 10, y: 0.001 + jitter(0.0005)) }
            let bottom = (0..<m).map { PixelPoint(x: Double($0) * 10, y: -jitter(0.0005)) }
            return [top + bottom.reversed()]
        case .diagonalSliver:
            let m = max(2, size / 2)
            let top = (0..<m).map { PixelPoint(x: Double($0) * 10, y: 7.5 * Double($0) + 0.01 + jitter(0.005)) }
            let bottom = (0..<m).map { PixelPoint(x: Double($0) * 10, y: 7.5 * Double($0) - 0.01 - jitter(0.005)) }
            return [top + bottom.reversed()]
        case .manyHoles:
            let side = max(1, Int(Double(size / 4).squareRoot()))
            var rings = [[PixelPoint(x: 0, y: 0), PixelPoint(x: Double(10 * side + 10), y: 0),
                          PixelPoint(x: Double(10 * side + 10), y: Double(10 * side + 10)), PixelPoint(x: 0, y: Double(10 * side + 10))]]
            for i in 0..<side {
                for j in 0..<side {
                    let x = Double(10 * i + 10), y = Double(10 * j + 10)
                    let d = 2 + jitter(3)
                    rings.append([PixelPoint(x: x, y: y), PixelPoint(x: x + d, y: y), PixelPoint(x: x + d, y: y + 6),
                                  PixelPoint(x: x, y: y + 6 - jitter(1))])
                }
            }
            return rings
        case .combHoles:
            // A box holding thin tall holes: every hole edge spans the whole height.
            let count = max(1, size / 4)
            var rings = [[PixelPoint(x: -1, y: -1), PixelPoint(x: Double(2 * count + 1), y: -1),
                          PixelPoint(x: Double(2 * count + 1), y: 1001), PixelPoint(x: -1, y: 1001)]]
            for i in 0..<count {
                let x = Double(2 * i)
                rings.append([PixelPoint(x: x, y: jitter(1)), PixelPoint(x: x + 1, y: jitter(1)),
                              PixelPoint(x: x + 1, y: 1000 - jitter(1)), PixelPoint(x: x, y: 1000 - jitter(1))])
            }
            return rings
        }
    }

    /// A comb of `teeth` teeth standing on a base: tooth i spans x in [2i, 2i + 1] from y = 0 up to
    /// about `height`; the gaps between teeth go down to y = 0 (+ jitter); the base spans y in [-10, 0].
    static func comb(teeth: Int, height: Double, jitter: (Double) -> Double) -> [PixelPoint] {
        var ring = [PixelPoint(x: 0, y: -10), PixelPoint(x: Double(2 * teeth - 1), y: -10)]
        for i in (0..<teeth).reversed() {
            let x = Double(2 * i)
            let top = height + jitter(5)
            ring.append(PixelPoint(x: x + 1, y: top))
            ring.append(PixelPoint(x: x, y: top))
            if i > 0 {
                let gap = jitter(0.5)
                ring.append(PixelPoint(x: x, y: gap))
                ring.append(PixelPoint(x: x - 1, y: gap))
            }
        }
        return ring
    }
}
