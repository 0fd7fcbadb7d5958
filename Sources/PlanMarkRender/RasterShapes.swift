import Foundation
import PlanMarkGeometry

extension RasterPath {
    /// Adds a disc of `radius` around `centre` as one polygon whose chords stay within 0.05 px of the
    /// circle (at least 8 sides).
    /// - Complexity: O(√radius) points.
    mutating func addCircle(centre: PixelPoint, radius: Double) {
        guard radius > 0 else { return }
        let steps = max(8, Self.arcSteps(radius: radius, angle: 2 * .pi))
        let step = 2 * Double.pi / Double(steps)
        let c = cos(step), s = sin(step)
        var x = radius, y = 0.0
        move(to: PixelPoint(x: centre.x + x, y: centre.y))
        for _ in 1..<steps {
            (x, y) = (x * c - y * s, x * s + y * c)
            line(to: PixelPoint(x: centre.x + x, y: centre.y + y))
        }
        close()
    }

    /// Adds an axis-aligned rectangle as one contour.
    mutating func addRectangle(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        move(to: PixelPoint(x: minX, y: minY))
        line(to: PixelPoint(x: maxX, y: minY))
        line(to: PixelPoint(x: maxX, y: maxY))
        line(to: PixelPoint(x: minX, y: maxY))
        close()
    }

    /// Adds a rectangle with corners rounded by `radius` (clamped to half the shorter side) as one
    /// contour, in the same orientation as `addCircle` and `addRectangle`.
    /// - Complexity: O(√radius) points.
    mutating func addRoundedRectangle(minX: Double, minY: Double, maxX: Double, maxY: Double, radius: Double) {
        let r = min(radius, (maxX - minX) / 2, (maxY - minY) / 2)
        guard r > 0 else {
            addRectangle(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
            return
        }
        var points: [PixelPoint] = []
        // Corners clockwise on screen (y down): top-right, bottom-right, bottom-left, top-left.
        let corners = [
            (PixelPoint(x: maxX - r, y: minY + r), (0.0, -1.0)),
            (PixelPoint(x: maxX - r, y: maxY - r), (1.0, 0.0)),
            (PixelPoint(x: minX + r, y: maxY - r), (0.0, 1.0)),
            (PixelPoint(x: minX + r, y: minY + r), (-1.0, 0.0)),
        ]
        for (centre, start) in corners {
            points.append(PixelPoint(x: centre.x + start.0 * r, y: centre.y + start.1 * r))
            Self.appendArc(around: centre, from: start, angle: .pi / 2, radius: r, into: &points)
            points.append(PixelPoint(x: centre.x - start.1 * r, y: centre.y + start.0 * r))
        }
        addPolygon(points)
    }
}
