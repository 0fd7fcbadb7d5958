import Foundation
import PlanMarkGeometry

/// The outline of a marker in output pixels: a disc, or a pill (rounded rectangle) for long labels; or a ring
/// between two of them (filled even-odd), for a layer whose middle the next layer covers.
enum ReviewMarkerShape: Hashable, Sendable {
    /// The part of `outer` outside `inner`.
    indirect case ring(outer: ReviewMarkerShape, inner: ReviewMarkerShape)
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
        case .ring(let outer, let inner):
            return .ring(outer: outer.inflated(by: amount), inner: inner.inflated(by: amount))
        }
    }

    /// The shape moved by `offset`.
    func moved(by offset: PixelPoint) -> ReviewMarkerShape {
        switch self {
        case .disc(let centre, let radius):
            return .disc(centre: PixelPoint(x: centre.x + offset.x, y: centre.y + offset.y), radius: radius)
        case .pill(let minX, let minY, let maxX, let maxY, let radius):
            return .pill(minX: minX + offset.x, minY: minY + offset.y, maxX: maxX + offset.x, maxY: maxY + offset.y, radius: radius)
        case .ring(let outer, let inner):
            return .ring(outer: outer.moved(by: offset), inner: inner.moved(by: offset))
        }
    }

    /// The shape's bounding box.
    var bounds: BoundingBox {
        switch self {
        case .disc(let c, let r): return BoundingBox(minX: c.x - r, minY: c.y - r, maxX: c.x + r, maxY: c.y + r)
        case .pill(let minX, let minY, let maxX, let maxY, _):
            return BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        case .ring(let outer, _):
            return outer.bounds
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

    /// Lays out and records every marker with a finite position that reaches the view (see `PinPlacer`):
    /// first the leader lines of displaced pins, then the dots at their positions, then the pins (closed and
    /// void first, then valid, open, in-progress and ready, then invalid on top, each group in the given
    /// order), then the stack badges, then `markers[around]` (the marker an `around` view is centred on), at its
    /// position, in `ReviewStyle.aroundRing`'s ring and on top of everything. Pins keep off `labels` (rooms' label
    /// boxes, drawing pixels) where there is room. Returns where everything went.
    /// - Complexity: O(markers × marker area) to draw, plus `PinPlacer.place`'s O(markers + grid cells + labels' cells).
    mutating func drawMarkers(_ markers: [ReviewMarker], around: Int? = nil, labels: [BoundingBox] = []) throws(ReviewError) -> ReviewLayout {
        var layout = ReviewLayout(markerRadius: markerRadius, pins: [], stacks: [], viewWidth: viewWidth, viewHeight: viewHeight)
        guard !markers.isEmpty else { return layout }
        let halo = max(1.5, markerRadius * 0.15)
        let size = labelSize
        var visible: [Int] = []
        var footprints: [PinFootprint] = []
        var shapes: [ReviewMarkerShape] = []
        var extents: [TextFont.Extent] = []
        for (index, marker) in markers.enumerated() where marker.position.isFinite {
            let anchor = transform.apply(marker.position)
            let ring = ringWidth(of: marker, around: index == around)
            // Cheap rejection before measuring text: the largest pin this marker could be, fanned out as far as it goes.
            let reach = (markerRadius * 1.35 + halo + ring + 1 + Double(size * marker.label.count)) * Double(2 * PinPlacer.rings + 1)
            guard anchor.x + reach > 0, anchor.y + reach > 0,
                  anchor.x - reach < Double(viewWidth), anchor.y - reach < Double(viewHeight) else { continue }
            let font = try textFont()
            let extent = font.measure(marker.label, size: size)
            let shape = ReviewMarkerShape.fitting(
                inkWidth: Double(extent.inkMaxX - extent.inkMinX), inkHeight: Double(extent.inkMaxY - extent.inkMinY),
                centre: anchor, radius: markerRadius)
            let outer = halo + ring + 1  // the pin's full size: rings and edge
            switch shape {
            case .disc(_, let radius):
                footprints.append(PinFootprint(anchor: anchor, radius: radius + outer, halfLength: 0))
            case .pill(let minX, _, let maxX, _, let radius):
                footprints.append(PinFootprint(anchor: anchor, radius: radius + outer, halfLength: (maxX - minX) / 2 - radius))
            case .ring:
                preconditionFailure("ReviewMarkerShape.fitting makes discs and pills")
            }
            visible.append(index)
            shapes.append(shape)
            extents.append(extent)
        }
        guard !visible.isEmpty else { return layout }
        // Most important first: invalid, then work to do, then closed and void.
        var order = Array(0..<visible.count)
        order.sort { a, b in
            let ra = Self.rank(of: markers[visible[a]].state), rb = Self.rank(of: markers[visible[b]].state)
            return ra != rb ? ra > rb : a < b
        }
        let pinned = around.flatMap { visible.firstIndex(of: $0) }
        let keepOut = labels.map { box in
            BoundingBox([transform.apply(PixelPoint(x: box.minX, y: box.minY)), transform.apply(PixelPoint(x: box.maxX, y: box.maxY))])
        }
        let placement = PinPlacer.place(
            footprints, order: order, width: viewWidth, height: viewHeight, gap: pinGap, dot: dotRadius + dotHalo,
            pinned: pinned, keepOut: keepOut)

        // Leader lines, then the dots at the displaced markers' positions, under every pin.
        for (k, centre) in placement.centres.enumerated() {
            guard let centre, centre != footprints[k].anchor else { continue }
            path.removeAll()
            path.addStroke([footprints[k].anchor, centre], closed: false, width: leaderWidth, join: .round)
            record(colour: style.leader)
        }
        for (k, centre) in placement.centres.enumerated() where centre != nil && centre != footprints[k].anchor {
            fill(.disc(centre: footprints[k].anchor, radius: dotRadius + dotHalo), colour: style.halo)
        }
        // Dots by drawing pass too: where positions coincide, the most important marker's dot is on top.
        for pass in 0..<3 {
            for (k, centre) in placement.centres.enumerated() where centre != nil && centre != footprints[k].anchor {
                let state = markers[visible[k]].state
                guard Self.rank(of: state) == pass else { continue }
                fill(.disc(centre: footprints[k].anchor, radius: dotRadius), colour: style.colour(for: state))
            }
        }
        func pin(_ k: Int, at centre: PixelPoint) {
            let marker = markers[visible[k]]
            let anchor = footprints[k].anchor
            let shape = shapes[k].moved(by: PixelPoint(x: centre.x - anchor.x, y: centre.y - anchor.y))
            drawPin(marker, shape: shape, centre: centre, extent: extents[k], around: k == pinned)
            let body: Double, halfLength: Double
            switch shape {
            case .disc(_, let radius): (body, halfLength) = (radius, 0)
            case .pill(let minX, _, let maxX, _, let radius): (body, halfLength) = (radius, (maxX - minX) / 2 - radius)
            case .ring: preconditionFailure("ReviewMarkerShape.fitting makes discs and pills")
            }
            layout.pins.append(.init(marker: visible[k], anchor: anchor, centre: centre, bodyRadius: body,
                                     halfLength: halfLength, outerRadius: footprints[k].radius))
        }
        for pass in 0..<3 {
            for (k, centre) in placement.centres.enumerated() where k != pinned {
                guard let centre, Self.rank(of: markers[visible[k]].state) == pass else { continue }
                pin(k, at: centre)
            }
        }
        for members in placement.stacks {
            var x = 0.0, y = 0.0
            for k in members { x += footprints[k].anchor.x; y += footprints[k].anchor.y }
            let centre = PixelPoint(x: x / Double(members.count), y: y / Double(members.count))
            try drawStackBadge(count: members.count, centre: centre)
            layout.stacks.append(.init(centre: centre, markers: members.map { visible[$0] }))
        }
        // The marker the view is centred on, over its neighbours and their badges.
        if let pinned, let centre = placement.centres[pinned] { pin(pinned, at: centre) }
        return layout
    }

    /// Space kept between two pins, output pixels.
    var pinGap: Double { max(1, markerRadius * 0.1) }
    /// Radius of the dot drawn at a displaced marker's position.
    var dotRadius: Double { max(2, markerRadius * 0.22) }
    /// The white ring around that dot.
    var dotHalo: Double { max(1, markerRadius * 0.08) }
    /// Width of a leader line.
    var leaderWidth: Double { max(1, markerRadius * 0.12) }

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
    /// Width of the ring round the marker an `around` view is centred on, output pixels: nearly twice the
    /// overdue ring's.
    var aroundRingWidth: Double { max(4, markerRadius * 0.45) }

    /// The width of the rings outside `marker`'s halo: the overdue ring when overdue, and the around ring when
    /// the view is centred on it (`around`).
    func ringWidth(of marker: ReviewMarker, around: Bool) -> Double {
        (marker.overdue ? overdueRingWidth : 0) + (around ? aroundRingWidth : 0)
    }

    /// Records one pin of `shape` centred on `centre`, from the outside in: a soft edge, the around ring when the
    /// view is centred on it (`around`), the overdue ring when overdue, a white halo, the coloured body and the
    /// label centred by its ink box.
    mutating func drawPin(
        _ marker: ReviewMarker, shape: ReviewMarkerShape, centre: PixelPoint, extent: TextFont.Extent, around: Bool = false
    ) {
        let halo = max(1.5, markerRadius * 0.15)
        let body = style.colour(for: marker.state)
        // Layers from the inside out: (width, colour); each is filled under the one inside it.
        var layers: [(width: Double, colour: Colour)] = [(halo, style.halo)]
        if marker.overdue { layers.append((overdueRingWidth, style.overdue)) }
        if around { layers.append((aroundRingWidth, style.aroundRing)) }
        layers.append((1, style.haloEdge))
        // reach[k]: how far layer k's outer edge lies outside the body, summed from the inside out.
        var reach: [Double] = []
        for layer in layers { reach.append((reach.last ?? 0) + layer.width) }
        for k in stride(from: layers.count - 1, through: 0, by: -1) {
            let next = k == 0 ? (shape, body) : (shape.inflated(by: reach[k - 1]), layers[k - 1].colour)
            fillLayer(shape.inflated(by: reach[k]), colour: layers[k].colour, under: next.0, next.1)
        }
        fill(shape, colour: body)
        let x = Int((centre.x - Double(extent.inkMinX + extent.inkMaxX) / 2).rounded())
        let baseline = Int((centre.y - Double(extent.inkMinY + extent.inkMaxY) / 2).rounded())
        recordText(marker.label, size: labelSize, x: x, baseline: baseline, extent: extent, colour: style.label)
    }

    /// Records a stack badge: "+N" in a dark pin with a white halo, for `count` markers that found no room.
    mutating func drawStackBadge(count: Int, centre: PixelPoint) throws(ReviewError) {
        let font = try textFont()
        let text = "+\(count)"
        let extent = font.measure(text, size: labelSize)
        let shape = ReviewMarkerShape.fitting(
            inkWidth: Double(extent.inkMaxX - extent.inkMinX), inkHeight: Double(extent.inkMaxY - extent.inkMinY),
            centre: centre, radius: markerRadius)
        let halo = max(1.5, markerRadius * 0.15)
        fillLayer(shape.inflated(by: halo + 1), colour: style.haloEdge, under: shape.inflated(by: halo), style.halo)
        fillLayer(shape.inflated(by: halo), colour: style.halo, under: shape, style.stack)
        fill(shape, colour: style.stack)
        let x = Int((centre.x - Double(extent.inkMinX + extent.inkMaxX) / 2).rounded())
        let baseline = Int((centre.y - Double(extent.inkMinY + extent.inkMaxY) / 2).rounded())
        recordText(text, size: labelSize, x: x, baseline: baseline, extent: extent, colour: style.label)
    }

    /// Records `shape` filled with `colour`, to be covered by `next` filled with the opaque `nextColour`: only the
    /// ring from 1.5 px inside `next`'s edge outwards is filled (what stays visible, with full coverage under
    /// `next`'s anti-aliased edge), so a large pin blends its area once instead of once per layer. The same
    /// pixels as filling all of `shape`; with a translucent `nextColour`, all of `shape` is filled.
    mutating func fillLayer(_ shape: ReviewMarkerShape, colour: Colour, under next: ReviewMarkerShape, _ nextColour: Colour) {
        let hole = next.inflated(by: -1.5)
        let holeSize: Double
        switch hole {
        case .disc(_, let radius): holeSize = radius
        case .pill(_, _, _, _, let radius): holeSize = radius
        case .ring: holeSize = 0
        }
        if nextColour.alpha == 255 && holeSize > 1 {
            fill(.ring(outer: shape, inner: hole), colour: colour)
        } else {
            fill(shape, colour: colour)
        }
    }

    /// Records a filled marker shape.
    mutating func fill(_ shape: ReviewMarkerShape, colour: Colour) {
        guard colour.alpha > 0 else { return }
        let box = shape.bounds
        let rows = Rasteriser.floorInt(box.minY)..<max(Rasteriser.floorInt(box.minY), Rasteriser.ceilInt(box.maxY))
        record(.shape(shape, colour), rows: rows)
    }

    /// Builds the path of a marker shape into `path` (a ring as two contours, for the even-odd rule).
    static func build(_ shape: ReviewMarkerShape, into path: inout RasterPath) {
        path.removeAll()
        add(shape, to: &path)
    }

    private static func add(_ shape: ReviewMarkerShape, to path: inout RasterPath) {
        switch shape {
        case .disc(let centre, let radius):
            path.addCircle(centre: centre, radius: radius)
        case .pill(let minX, let minY, let maxX, let maxY, let radius):
            path.addRoundedRectangle(minX: minX, minY: minY, maxX: maxX, maxY: maxY, radius: radius)
        case .ring(let outer, let inner):
            add(outer, to: &path)
            add(inner, to: &path)
        }
    }
}
