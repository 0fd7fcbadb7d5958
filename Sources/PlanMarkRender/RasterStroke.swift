import Foundation
import PlanMarkGeometry

/// How two stroked segments meet at a vertex, on the outer side of the turn.
enum RasterLineJoin: Hashable, Sendable {
    /// Sharp corner, cut off (bevelled) where the miter would reach beyond `limit` half-widths.
    case miter(limit: Double)
    /// Rounded corner: an arc around the vertex.
    case round
    /// Straight cut across the corner.
    case bevel
}

extension RasterPath {
    /// Adds the outline of a stroke of `width` pixels along `points` as contours to fill with
    /// `.nonZero`: for a closed ring, its offset on each side (the two sides run in opposite
    /// directions, so the band between them has winding ±1); for an open polyline, one contour round
    /// both sides with butt ends. Outer corners get `join`; inner corners pass through the vertex,
    /// as FreeType's and AGG's strokers do, so overlaps there add winding instead of leaving gaps.
    /// - Complexity: O(n + arc points) for n points.
    mutating func addStroke(_ points: [PixelPoint], closed: Bool, width: Double, join: RasterLineJoin) {
        var clean: [PixelPoint] = []
        clean.reserveCapacity(points.count)
        for point in points where point.isFinite && point != clean.last { clean.append(point) }
        if closed, clean.count > 1, clean.first == clean.last { clean.removeLast() }
        guard clean.count >= 2, width > 0 else { return }
        let half = width / 2
        if closed && clean.count >= 3 {
            var contour: [PixelPoint] = []
            Self.offsetSide(clean, closed: true, half: half, join: join, into: &contour)
            addPolygon(contour)
            contour.removeAll(keepingCapacity: true)
            Self.offsetSide(clean.reversed(), closed: true, half: half, join: join, into: &contour)
            addPolygon(contour)
        } else {
            var contour: [PixelPoint] = []
            Self.offsetSide(clean, closed: false, half: half, join: join, into: &contour)
            Self.offsetSide(clean.reversed(), closed: false, half: half, join: join, into: &contour)
            addPolygon(contour)
        }
    }

    /// Appends the offset of `v` by `half` on the side of the normal `(-u.y, u.x)` of each segment
    /// direction `u`, with joins; for an open line it starts at the first point and ends at the last.
    private static func offsetSide(
        _ v: [PixelPoint], closed: Bool, half: Double, join: RasterLineJoin, into out: inout [PixelPoint]
    ) {
        let n = v.count
        @inline(__always) func direction(_ i: Int, _ j: Int) -> (Double, Double) {
            let dx = v[j].x - v[i].x, dy = v[j].y - v[i].y
            let length = (dx * dx + dy * dy).squareRoot()
            return (dx / length, dy / length)
        }
        @inline(__always) func offset(_ p: PixelPoint, _ u: (Double, Double)) -> PixelPoint {
            PixelPoint(x: p.x - u.1 * half, y: p.y + u.0 * half)
        }
        let range = closed ? 0..<n : 1..<(n - 1)
        if !closed { out.append(offset(v[0], direction(0, 1))) }
        for i in range {
            let previous = i == 0 ? n - 1 : i - 1
            let next = i == n - 1 ? 0 : i + 1
            let inward = direction(previous, i), outward = direction(i, next)
            let cross = inward.0 * outward.1 - inward.1 * outward.0
            let dot = inward.0 * outward.0 + inward.1 * outward.1
            let vertex = v[i]
            let a = offset(vertex, inward), b = offset(vertex, outward)
            if abs(cross) < 1e-12 && dot > 0 {
                out.append(a)  // straight on
            } else if cross > 0 {
                // The offset side is inside the turn: pass through the vertex.
                out.append(a); out.append(vertex); out.append(b)
            } else {
                out.append(a)
                switch join {
                case .bevel:
                    break
                case .miter(let limit):
                    // Miter length over half-width is 1 / cos(θ/2) = sqrt(2 / (1 + dot)).
                    if 1 + dot > 1e-12, 2 / (1 + dot) <= limit * limit {
                        let scale = half / (1 + dot)
                        let nx = -inward.1 - outward.1, ny = inward.0 + outward.0
                        out.append(PixelPoint(x: vertex.x + nx * scale, y: vertex.y + ny * scale))
                    }
                case .round:
                    appendArc(around: vertex, from: (-inward.1, inward.0), angle: atan2(cross, dot),
                              radius: half, into: &out)
                }
                out.append(b)
            }
        }
        if !closed { out.append(offset(v[n - 1], direction(n - 2, n - 1))) }
    }

    /// Appends the inner points of an arc of `radius` around `centre`, starting at unit vector `from`
    /// and turning by `angle` radians (the end points are added by the caller).
    static func appendArc(
        around centre: PixelPoint, from: (Double, Double), angle: Double, radius: Double, into out: inout [PixelPoint]
    ) {
        let steps = arcSteps(radius: radius, angle: abs(angle))
        guard steps > 1 else { return }
        let step = angle / Double(steps)
        let c = cos(step), s = sin(step)
        var x = from.0, y = from.1
        for _ in 1..<steps {
            (x, y) = (x * c - y * s, x * s + y * c)
            out.append(PixelPoint(x: centre.x + x * radius, y: centre.y + y * radius))
        }
    }

    /// Segments for an arc of `angle` radians so that the chords stay within 0.05 px of the circle.
    static func arcSteps(radius: Double, angle: Double) -> Int {
        guard radius > 0.05 else { return 1 }
        let maxStep = 2 * acos(1 - 0.05 / radius)
        return max(1, Int((angle / maxStep).rounded(.up)))
    }
}
