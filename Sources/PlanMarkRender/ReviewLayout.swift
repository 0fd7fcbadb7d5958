import Foundation
import PlanMarkGeometry

/// Where a review image drew its markers: each visible marker either as a pin (at its position, or fanned
/// out to a free place nearby with a leader line back to its position) or counted in a stack badge.
///
/// All coordinates are output pixels of the rendered image. `ReviewRenderer.renderWithLayout` returns it,
/// so that callers (and tests) can tell where every number was drawn.
public struct ReviewLayout: Hashable, Sendable {
    /// One drawn pin.
    public struct Pin: Hashable, Sendable {
        /// The marker's index in the `markers` passed to the renderer.
        public var marker: Int
        /// The marker's own position, output pixels (where its leader line ends when it is displaced).
        public var anchor: PixelPoint
        /// The centre of the pin as drawn.
        public var centre: PixelPoint
        /// Radius of the coloured body (of a disc), or half its height (of a pill), output pixels.
        public var bodyRadius: Double
        /// Half the length of a pill's straight part; 0 for a disc.
        public var halfLength: Double
        /// The pin's outer radius: body, halo, overdue ring and the soft edge (a pill's half height).
        public var outerRadius: Double

        /// True when the pin was moved off its position (a leader line joins the two).
        public var isDisplaced: Bool { centre != anchor }
    }

    /// One stack badge: markers that found no free place near their position, drawn as one badge with their count.
    public struct Stack: Hashable, Sendable {
        /// The badge's centre: the mean of its markers' positions, output pixels.
        public var centre: PixelPoint
        /// The markers' indices in the `markers` passed to the renderer.
        public var markers: [Int]
    }

    /// Radius of a one-digit pin's body, output pixels.
    public var markerRadius: Double
    /// Every drawn pin, in the order drawn.
    public var pins: [Pin]
    /// The stack badges.
    public var stacks: [Stack]
    /// The view's size: the drawing's part of the image, at its top left (the rest is the panel's margin).
    public var viewWidth: Int, viewHeight: Int
    /// The panel's box (title, filters line, legend), right of the view or below it; nil when none was drawn.
    public var panel: BoundingBox?

    /// Creates a layout.
    public init(markerRadius: Double, pins: [Pin], stacks: [Stack], viewWidth: Int = 0, viewHeight: Int = 0,
                panel: BoundingBox? = nil) {
        self.markerRadius = markerRadius
        self.pins = pins
        self.stacks = stacks
        self.viewWidth = viewWidth
        self.viewHeight = viewHeight
        self.panel = panel
    }
}

/// The room a pin takes: a horizontal capsule (a disc when `halfLength` is 0) of `radius` around the segment
/// `centre.x ± halfLength` at `centre.y`.
struct PinFootprint {
    /// Where the marker points (output pixels).
    var anchor: PixelPoint
    /// Outer radius (half height), including halo and edge.
    var radius: Double
    /// Half the straight part's length (pills), else 0.
    var halfLength: Double
}

/// Places pins so that none overlaps another or covers a displaced marker's position.
///
/// 1. A marker is *crowded* when its pin, drawn at its position, would overlap another marker's pin drawn
///    at that one's position (with `gap` between them). Pins that are not crowded stay where they are.
/// 2. Crowded markers, in the given priority order, are fanned out: tried at up to `rings` rings around their
///    position (ring k at k × (pin width + 2 gaps), 6k evenly spaced places, nearest ring first), taking the first place
///    that lies wholly on the image, overlaps no placed pin and covers no marker's position (positions are
///    kept per grid cell as a bounding box, a conservative test). A leader line then joins pin and position.
/// 3. A crowded marker with no such place joins the stack of its grid cell (one badge with a count); once a
///    cell has a stack, later markers of that cell join it without searching.
/// 4. The `pinned` marker (the one an `around` view is centred on), when given, stays at its position however
///    crowded it is: it is placed before the fanned-out pins, which make room for it.
/// 5. Pins keep off `keepOut` boxes (rooms' labels) where there is room: a pin that is not crowded but would
///    cover a label is moved as a crowded one is, before them, to the first place on the rings clear of labels too,
///    and stays at its position when there is none. A crowded pin takes a place clear of labels when there is
///    one, else any free place (a label covered is better than a pin stacked).
///
/// Neighbours are found through a uniform grid whose cells are at most one pin wide (diagonal below the
/// smallest pin-to-pin distance, so two positions in one cell always collide); a placed pin is filed in
/// every cell its box touches.
enum PinPlacer {
    /// Rings tried around a crowded marker's position (the longest leader line is this many pin widths).
    static let rings = 4
    /// At most this many grid cells; a smaller pin (an explicit `--marker-size`) gets coarser cells.
    static let maxCells = 1 << 18

    /// Unit vectors of the places on rings 1...`rings`, ring by ring: ring k has 6k places, the first
    /// pointing up (odd rings) or half a step round (even rings), so neighbouring rings interleave.
    static let directions: [(ring: Int, x: Double, y: Double)] = {
        var out: [(ring: Int, x: Double, y: Double)] = []
        for ring in 1...rings {
            let count = 6 * ring
            let offset = ring % 2 == 0 ? Double.pi / Double(count) : 0
            for j in 0..<count {
                let angle = -Double.pi / 2 + 2 * Double.pi * Double(j) / Double(count) + offset
                out.append((ring, cos(angle), sin(angle)))
            }
        }
        return out
    }()

    /// The result: `centres[i]` is where pin `i` is drawn, nil when it joined a stack; `stacks` lists the
    /// stacks' members in the order they joined.
    struct Placement {
        var centres: [PixelPoint?]
        var stacks: [[Int]]
    }

    /// Places `pins` (footprints in output pixels) on a `width × height` image; `order` lists every index of
    /// `pins` once, most important first (it gets the nearest free place); `dot` is the radius kept clear
    /// around a displaced marker's position; `pinned` (an index of `pins`) stays at its position.
    /// - Complexity: O(n + cells) for n pins, with cells ≤ `maxCells`: the crowd test looks at the 5 × 5 or so
    ///   cells around a position and stops at the first collision (a cell with two positions collides at
    ///   once, so each cell is scanned for at most the constant number of lone positions around it); a crowded
    ///   pin is tried at at most 60 places, each against the pins filed in the few cells it covers (placed pins
    ///   never overlap, so a cell holds a bounded number). Only when the grid is capped (pins under about
    ///   1/400 of the image's side) can a cell hold many positions, and the worst case tends to O(n²).
    /// `keepOut` are boxes (output pixels) pins keep off where there is room (rule 5).
    /// - Complexity: as above, plus O(k × cells a box covers) to file k keep-out boxes, and each place tried is also
    ///   tested against the boxes filed in the cells it covers: O(k) at worst, when every box covers those cells.
    static func place(
        _ pins: [PinFootprint], order: [Int], width: Int, height: Int, gap: Double, dot: Double, pinned: Int? = nil,
        keepOut: [BoundingBox] = []
    ) -> Placement {
        let n = pins.count
        var centres = [PixelPoint?](repeating: nil, count: n)
        guard n > 0 else { return Placement(centres: centres, stacks: []) }
        var minRadius = Double.infinity, maxExtent = 0.0
        var minX = 0.0, minY = 0.0, maxX = Double(width), maxY = Double(height)
        for pin in pins {
            minRadius = min(minRadius, pin.radius)
            maxExtent = max(maxExtent, pin.radius + pin.halfLength)
            minX = min(minX, pin.anchor.x); minY = min(minY, pin.anchor.y)
            maxX = max(maxX, pin.anchor.x); maxY = max(maxY, pin.anchor.y)
        }
        // Cells: diagonal just under the closest two pins can be without colliding.
        var cell = max(0.5, (2 * minRadius + gap) / 2.0.squareRoot() * 0.999)
        let spanX = maxX - minX + 1, spanY = maxY - minY + 1
        if (spanX / cell) * (spanY / cell) > Double(maxCells) { cell = (spanX * spanY / Double(maxCells)).squareRoot() * 1.001 }
        let sameCellCollides = cell * 2.0.squareRoot() < 2 * minRadius + gap
        let columns = Int(spanX / cell) + 1, rows = Int(spanY / cell) + 1
        @inline(__always) func column(_ x: Double) -> Int { min(columns - 1, max(0, Int((x - minX) / cell))) }
        @inline(__always) func row(_ y: Double) -> Int { min(rows - 1, max(0, Int((y - minY) / cell))) }

        // Positions per cell (counting sort) and each cell's bounding box of positions.
        let cellCount = columns * rows
        var start = [Int32](repeating: 0, count: cellCount + 1)
        var cellOf = [Int32](repeating: 0, count: n)
        for i in 0..<n {
            let c = row(pins[i].anchor.y) * columns + column(pins[i].anchor.x)
            cellOf[i] = Int32(c)
            start[c + 1] += 1
        }
        for c in 0..<cellCount { start[c + 1] += start[c] }
        var fill = start
        var members = [Int32](repeating: 0, count: n)
        var boxes = [BoundingBox](repeating: BoundingBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity),
                                  count: cellCount)
        for i in 0..<n {
            let c = Int(cellOf[i])
            members[Int(fill[c])] = Int32(i)
            fill[c] += 1
            let p = pins[i].anchor
            boxes[c].minX = min(boxes[c].minX, p.x); boxes[c].maxX = max(boxes[c].maxX, p.x)
            boxes[c].minY = min(boxes[c].minY, p.y); boxes[c].maxY = max(boxes[c].maxY, p.y)
        }

        // 1. Crowded or not.
        let reachCells = Int(((2 * maxExtent + gap) / cell).rounded(.up))
        var crowded = [Bool](repeating: false, count: n)
        for i in 0..<n {
            let c = Int(cellOf[i])
            if sameCellCollides && start[c + 1] - start[c] >= 2 { crowded[i] = true; continue }
            let cx = c % columns, cy = c / columns
            search: for y in max(0, cy - reachCells)...min(rows - 1, cy + reachCells) {
                for x in max(0, cx - reachCells)...min(columns - 1, cx + reachCells) {
                    let d = y * columns + x
                    for k in Int(start[d])..<Int(start[d + 1]) {
                        let j = Int(members[k])
                        if j != i && collide(pins[i], at: pins[i].anchor, pins[j], at: pins[j].anchor, gap: gap) {
                            crowded[i] = true
                            break search
                        }
                    }
                }
            }
        }

        // Placed pins, filed in every cell their box (widened by the gap) touches: a linked list per cell.
        var head = [Int32](repeating: -1, count: cellCount)
        var next: [Int32] = [], owner: [Int32] = []
        func file(_ i: Int, at centre: PixelPoint) {
            centres[i] = centre
            let pin = pins[i], half = pin.radius + pin.halfLength + gap / 2
            for y in row(centre.y - pin.radius - gap / 2)...row(centre.y + pin.radius + gap / 2) {
                for x in column(centre.x - half)...column(centre.x + half) {
                    let c = y * columns + x
                    next.append(head[c]); owner.append(Int32(i))
                    head[c] = Int32(owner.count - 1)
                }
            }
        }
        // Keep-out boxes, filed in every cell they touch (clamped to the grid): a linked list per cell.
        var boxHead = [Int32](repeating: -1, count: keepOut.isEmpty ? 0 : cellCount)
        var boxNext: [Int32] = [], boxOwner: [Int32] = []
        for (b, box) in keepOut.enumerated() where box.maxX >= 0 && box.maxY >= 0 && box.minX <= Double(width) && box.minY <= Double(height) {
            for y in row(box.minY)...row(box.maxY) {
                for x in column(box.minX)...column(box.maxX) {
                    let c = y * columns + x
                    boxNext.append(boxHead[c]); boxOwner.append(Int32(b))
                    boxHead[c] = Int32(boxOwner.count - 1)
                }
            }
        }
        /// True when pin `i` drawn at `centre` covers a keep-out box (any part of its footprint).
        func coversLabel(_ i: Int, at centre: PixelPoint) -> Bool {
            guard !keepOut.isEmpty else { return false }
            let pin = pins[i], halfX = pin.radius + pin.halfLength
            for y in row(centre.y - pin.radius)...row(centre.y + pin.radius) {
                for x in column(centre.x - halfX)...column(centre.x + halfX) {
                    var link = boxHead[y * columns + x]
                    while link >= 0 {
                        if distance(pin, at: centre, to: keepOut[Int(boxOwner[Int(link)])]) < pin.radius { return true }
                        link = boxNext[Int(link)]
                    }
                }
            }
            return false
        }
        /// True when pin `i` drawn at `centre` overlaps no placed pin and, unless `atItsPlace` (its own position, where a pin
        /// that is not crowded may be cut by the edge and has no other marker's position within reach), lies wholly on the
        /// image and covers no marker's position; and, if `clearOfLabels`, covers no keep-out box.
        func isFree(_ i: Int, at centre: PixelPoint, clearOfLabels: Bool = false, atItsPlace: Bool = false) -> Bool {
            let pin = pins[i], halfX = pin.radius + pin.halfLength
            guard atItsPlace || (centre.x - halfX >= 0 && centre.x + halfX <= Double(width)
                  && centre.y - pin.radius >= 0 && centre.y + pin.radius <= Double(height)) else { return false }
            if clearOfLabels && coversLabel(i, at: centre) { return false }
            let reach = max(gap / 2, dot)
            for y in row(centre.y - pin.radius - reach)...row(centre.y + pin.radius + reach) {
                for x in column(centre.x - halfX - reach)...column(centre.x + halfX + reach) {
                    let c = y * columns + x
                    if !atItsPlace, start[c + 1] > start[c], distance(pin, at: centre, to: boxes[c]) < pin.radius + dot { return false }
                    var link = head[c]
                    while link >= 0 {
                        let j = Int(owner[Int(link)])
                        if collide(pin, at: centre, pins[j], at: centres[j]!, gap: gap) { return false }
                        link = next[Int(link)]
                    }
                }
            }
            return true
        }

        if let pinned { crowded[pinned] = false }
        // 5. Pins on a label, not crowded: moved first, while the most room is left.
        var onLabel = [Bool](repeating: false, count: n)
        for i in 0..<n where !crowded[i] && i != pinned && coversLabel(i, at: pins[i].anchor) { onLabel[i] = true }
        for i in 0..<n where !crowded[i] && !onLabel[i] { file(i, at: pins[i].anchor) }
        /// The first place on the rings around pin `i`'s position that `isFree` (clear of labels, if asked).
        func ringPlace(_ i: Int, clearOfLabels: Bool) -> PixelPoint? {
            // Ring spacing: a pin's width and two gaps, so that neighbours on ring 1 (a pin width apart) stay clear.
            let pin = pins[i], step = 2 * (pin.radius + pin.halfLength) + 2 * gap
            for direction in directions {
                let distance = Double(direction.ring) * step
                let centre = PixelPoint(x: pin.anchor.x + direction.x * distance, y: pin.anchor.y + direction.y * distance)
                if isFree(i, at: centre, clearOfLabels: clearOfLabels) { return centre }
            }
            return nil
        }
        for i in order where onLabel[i] {
            if let centre = ringPlace(i, clearOfLabels: true) {
                file(i, at: centre)
            } else if isFree(i, at: pins[i].anchor, atItsPlace: true) {
                file(i, at: pins[i].anchor)  // no room off the label: the pin stays where it is
            } else {
                crowded[i] = true  // a pin moved off another label took its place: placed as a crowded pin
            }
        }
        // 2 and 3. Crowded pins, most important first.
        var stackOfCell: [Int32: Int] = [:]
        var stacks: [[Int]] = []
        for i in order where crowded[i] {
            if let stack = stackOfCell[cellOf[i]] { stacks[stack].append(i); continue }
            var placed = false
            if let centre = ringPlace(i, clearOfLabels: true) ?? (keepOut.isEmpty ? nil : ringPlace(i, clearOfLabels: false)) {
                file(i, at: centre)
                placed = true
            }
            if !placed {
                stackOfCell[cellOf[i]] = stacks.count
                stacks.append([i])
            }
        }
        return Placement(centres: centres, stacks: stacks)
    }

    /// True when pins `a` at `p` and `b` at `q` come closer than `gap`.
    @inline(__always)
    static func collide(_ a: PinFootprint, at p: PixelPoint, _ b: PinFootprint, at q: PixelPoint, gap: Double) -> Bool {
        let dx = max(0, abs(p.x - q.x) - a.halfLength - b.halfLength), dy = p.y - q.y
        let reach = a.radius + b.radius + gap
        return dx * dx + dy * dy < reach * reach
    }

    /// Distance from the segment at the middle of pin `a` drawn at `p` to `box` (0 when they touch).
    @inline(__always)
    static func distance(_ a: PinFootprint, at p: PixelPoint, to box: BoundingBox) -> Double {
        let dx = max(0, box.minX - (p.x + a.halfLength), (p.x - a.halfLength) - box.maxX)
        let dy = max(0, box.minY - p.y, p.y - box.maxY)
        return (dx * dx + dy * dy).squareRoot()
    }
}
