import Foundation
import PlanMarkGeometry

/// The outline of a marker in output pixels: a disc, or a pill (rounded rectangle) for long labels.
enum ReviewMarkerShape: Hashable {
    /// A disc of `radius` around `centre`.
    case disc(centre: PixelPoint, radius: Double)
    /// A rounded rectangle with corner `radius`.
    case pill(minX: Double, minY: Double, maxX: Double, maxY: Double, radius: Double)

    /// The shape grown by `amount` on every side.
    func inflated(by amount: Double) -> ReviewMarkerShape {
        switch self {
        case .disc(let centre, let radius):
            return .disc(centre: centre, radius: radius + amount)
        case .pill(let minX, let minY, let maxX, let maxY, let radius):
            return .pill(minX: minX - amount, minY: minY - amount, maxX: maxX + amount, maxY: maxY + amount,
                         radius: radius + amount)
        }
    }

    /// The shape's bounding box.
    var bounds: BoundingBox {
        switch self {
        case .disc(let c, let r): return BoundingBox(minX: c.x - r, minY: c.y - r, maxX: c.x + r, maxY: c.y + r)
        case .pill(let minX, let minY, let maxX, let maxY, _):
            return BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        }
    }

    /// The shape that holds a label with ink box `inkWidth × inkHeight` centred on `centre`: the disc
    /// of `radius` when the box (plus padding) fits in it, a disc grown up to 1.35× when that is
    /// enough, otherwise a pill `2 × radius` high, as long as the label needs.
    static func fitting(inkWidth: Double, inkHeight: Double, centre: PixelPoint, radius: Double) -> ReviewMarkerShape {
        let pad = radius * 0.22
        let halfWidth = inkWidth / 2 + pad, halfHeight = inkHeight / 2
        let needed = (halfWidth * halfWidth + halfHeight * halfHeight).squareRoot()
        if needed <= radius { return .disc(centre: centre, radius: radius) }
        if needed <= radius * 1.35 { return .disc(centre: centre, radius: needed) }
        let halfChord = max(0, radius * radius - halfHeight * halfHeight).squareRoot()
        let straight = max(0, halfWidth - halfChord)
        return .pill(minX: centre.x - straight - radius, minY: centre.y - radius,
                     maxX: centre.x + straight + radius, maxY: centre.y + radius, radius: radius)
    }
}

extension ReviewPainter {
    /// The label's font size in pixels for markers of this painter.
    var labelSize: Int { max(8, Int((markerRadius * 1.1).rounded())) }

    /// Records every marker with a finite position: closed and void first, then valid, open, in-progress
    /// and ready, then invalid on top, each group in the given order.
    /// - Complexity: O(markers × marker area).
    mutating func drawMarkers(_ markers: [ReviewMarker]) throws(ReviewError) {
        guard !markers.isEmpty else { return }
        for pass in 0..<3 {
            for marker in markers where marker.position.isFinite && Self.rank(of: marker.state) == pass {
                try drawMarker(marker)
            }
        }
    }

    /// The drawing pass of a marker in `state`: 0 (below: closed, void), 1 (valid and work to do), 2 (invalid, on top).
    static func rank(of state: ReviewMarkerState) -> Int {
        switch state {
        case .status(.closed), .status(.void): return 0
        case .valid, .status: return 1
        case .invalid: return 2
        }
    }

    /// Width of the overdue ring, output pixels.
    var overdueRingWidth: Double { max(2, markerRadius * 0.25) }

    /// Records one marker centred on its position: a soft edge, the overdue ring when overdue, a white halo,
    /// the coloured body and the label centred by its ink box.
    mutating func drawMarker(_ marker: ReviewMarker) throws(ReviewError) {
        let centre = transform.apply(marker.position)
        let halo = max(1.5, markerRadius * 0.15)
        let ring = marker.overdue ? overdueRingWidth : 0
        // Cheap rejection before measuring text: the largest disc this marker could be.
        let reach = markerRadius * 1.35 + halo + ring + 1 + Double(labelSize * marker.label.count)
        guard centre.x + reach > 0, centre.y + reach > 0,
              centre.x - reach < Double(image.width), centre.y - reach < Double(image.height) else { return }
        let font = try textFont()
        let size = labelSize
        let extent = font.measure(marker.label, size: size)
        let shape = ReviewMarkerShape.fitting(
            inkWidth: Double(extent.inkMaxX - extent.inkMinX), inkHeight: Double(extent.inkMaxY - extent.inkMinY),
            centre: centre, radius: markerRadius)
        fill(shape.inflated(by: halo + ring + 1), colour: style.haloEdge)
        if marker.overdue { fill(shape.inflated(by: halo + ring), colour: style.overdue) }
        fill(shape.inflated(by: halo), colour: style.halo)
        fill(shape, colour: style.colour(for: marker.state))
        let x = Int((centre.x - Double(extent.inkMinX + extent.inkMaxX) / 2).rounded())
        let baseline = Int((centre.y - Double(extent.inkMinY + extent.inkMaxY) / 2).rounded())
        recordText(marker.label, size: size, x: x, baseline: baseline, extent: extent, colour: style.label)
    }

    /// Records a filled marker shape.
    mutating func fill(_ shape: ReviewMarkerShape, colour: Colour) {
        guard colour.alpha > 0 else { return }
        let box = shape.bounds
        let rows = Rasteriser.floorInt(box.minY)..<max(Rasteriser.floorInt(box.minY), Rasteriser.ceilInt(box.maxY))
        record(.shape(shape, colour), rows: rows)
    }

    /// Builds the path of a marker shape into `path`.
    static func build(_ shape: ReviewMarkerShape, into path: inout RasterPath) {
        path.removeAll()
        switch shape {
        case .disc(let centre, let radius):
            path.addCircle(centre: centre, radius: radius)
        case .pill(let minX, let minY, let maxX, let maxY, let radius):
            path.addRoundedRectangle(minX: minX, minY: minY, maxX: maxX, maxY: maxY, radius: radius)
        }
    }
}
