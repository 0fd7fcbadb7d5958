/// Receives a path's coverage from `Rasteriser.rasterise`, one row at a time, left to right.
protocol RasterSpanSink {
    /// Pixels `x0..<x1` of row `y` all have `coverage` (in 0...1, never 0).
    mutating func span(y: Int, x0: Int, x1: Int, coverage: Float)
    /// Pixel `x0 + i` of row `y` has `coverage[i]` (in 0...1, possibly 0).
    mutating func cells(y: Int, x0: Int, coverage: UnsafeBufferPointer<Float>)
}

/// An exact-area-coverage scanline rasteriser (the method of FreeType's smooth rasteriser, AGG and
/// font-rs): every edge adds its signed area and cover to the cells it crosses, then each row is
/// integrated left to right, giving each pixel the exact fraction of it inside the path.
///
/// Like FreeType's, it only integrates cells that edges touched: it records which columns of each
/// row an edge crossed, and between those the coverage is constant, handed over as one span (or
/// skipped when zero). So a room's interior costs one span per row, and an outline's empty inside
/// costs nothing.
///
/// The accumulation buffer spans only the path's bounding box clipped to the canvas, processed in bands
/// of at most `maxBandCells` cells, and is reused from one shape to the next: no full-canvas temporary
/// per shape, and no allocation once the buffers have grown to the largest band.
struct Rasteriser: Sendable {
    /// Largest band, in cells (1 MB of `Float`).
    static let maxBandCells = 1 << 18
    /// Widest clip the column marks can encode.
    static let maxWidth = (1 << 21) - 3

    /// Signed area/cover deltas; all zero between calls.
    private var cells: [Float] = []
    /// Coverage of the touched cells of one row, handed to the sink.
    private var coverageRow: [Float] = []
    /// Touched columns: `row << 42 | first << 21 | last`, sorted before integration.
    private var marks: [UInt64] = []

    /// A rasteriser with empty buffers.
    init() {}

    /// Computes the coverage of `path` inside `clip` and hands it to `sink` row by row, top to bottom,
    /// each row left to right, skipping pixels of zero coverage between edges.
    /// - Complexity: O(E·B + C log C + S) for E edges, B bands, C cells touched by edges and S pixels
    ///   handed over; no per-pixel work for the parts of the bounding box the path does not cover.
    mutating func rasterise<Sink: RasterSpanSink>(
        _ path: RasterPath, rule: RasterFillRule, clip: PixelRect, into sink: inout Sink
    ) {
        guard !path.isEmpty else { return }
        let box = PixelRect(
            x0: Self.floorInt(path.minX), y0: Self.floorInt(path.minY),
            x1: Self.ceilInt(path.maxX), y1: Self.ceilInt(path.maxY)
        ).intersection(clip)
        guard !box.isEmpty else { return }
        precondition(box.width <= Self.maxWidth, "Rasteriser: clip wider than \(Self.maxWidth) pixels")
        let width = box.width
        let stride = width + 2
        let bandRows = max(1, min(box.height, Self.maxBandCells / stride))
        if cells.count < stride * bandRows { cells = [Float](repeating: 0, count: stride * bandRows) }
        if coverageRow.count < stride { coverageRow = [Float](repeating: 0, count: stride) }

        let left = Double(box.x0), right = Double(box.x1)
        var bandTop = box.y0
        while bandTop < box.y1 {
            let bandBottom = min(bandTop + bandRows, box.y1)
            let top = Double(bandTop), bottom = Double(bandBottom)
            marks.removeAll(keepingCapacity: true)
            cells.withUnsafeMutableBufferPointer { cellBuffer in
                for edge in path.edges {
                    Self.addEdge(
                        edge, top: top, bottom: bottom, left: left, right: right,
                        cells: cellBuffer.baseAddress!, stride: stride, rows: bandBottom - bandTop, marks: &marks)
                }
            }
            marks.sort()
            integrateBand(top: bandTop, x0: box.x0, width: width, stride: stride, rule: rule, into: &sink)
            bandTop = bandBottom
        }
    }

    /// Integrates the marked cells of one band row by row, zeroing them, and feeds the sink.
    private mutating func integrateBand<Sink: RasterSpanSink>(
        top: Int, x0: Int, width: Int, stride: Int, rule: RasterFillRule, into sink: inout Sink
    ) {
        let mask: UInt64 = (1 << 21) - 1
        cells.withUnsafeMutableBufferPointer { cellBuffer in
            coverageRow.withUnsafeMutableBufferPointer { coverage in
                marks.withUnsafeBufferPointer { marks in
                    var m = 0
                    let count = marks.count
                    while m < count {
                        let row = Int(marks[m] >> 42)
                        let rowCells = cellBuffer.baseAddress! + row * stride
                        let y = top + row
                        var winding: Float = 0
                        var x = 0  // first column not yet handed over
                        while m < count && Int(marks[m] >> 42) == row {
                            // Merge marks that touch or overlap into one run of cells.
                            let first = Int((marks[m] >> 21) & mask)
                            var last = Int(marks[m] & mask)
                            m += 1
                            while m < count && Int(marks[m] >> 42) == row && Int((marks[m] >> 21) & mask) <= last + 1 {
                                last = max(last, Int(marks[m] & mask))
                                m += 1
                            }
                            if first > x {
                                let c = rule.coverage(winding)
                                if c > 0 { sink.span(y: y, x0: x0 + x, x1: x0 + min(first, width), coverage: c) }
                            }
                            for i in first...last {
                                winding += rowCells[i]
                                rowCells[i] = 0
                                coverage[i - first] = rule.coverage(winding)
                            }
                            let end = min(last + 1, width)
                            if end > first {
                                sink.cells(y: y, x0: x0 + first, coverage: UnsafeBufferPointer(rebasing: coverage[0..<(end - first)]))
                            }
                            x = last + 1
                        }
                        if x < width {
                            let c = rule.coverage(winding)
                            if c > 0 { sink.span(y: y, x0: x0 + x, x1: x0 + width, coverage: c) }
                        }
                    }
                }
            }
        }
    }

    /// Clips one edge to the band `[top, bottom)` and the columns `[left, right]`, then accumulates it.
    /// Parts left of the band are kept as vertical edges on its left side (they still cover the row to
    /// their right); parts right of it are clamped to its right side, outside the columns read back.
    @inline(__always)
    private static func addEdge(
        _ edge: RasterEdge, top: Double, bottom: Double, left: Double, right: Double,
        cells: UnsafeMutablePointer<Float>, stride: Int, rows: Int, marks: inout [UInt64]
    ) {
        var ax = edge.x0, ay = edge.y0, bx = edge.x1, by = edge.y1
        var direction: Float = 1
        if ay > by {
            swap(&ax, &bx); swap(&ay, &by)
            direction = -1
        }
        guard by > top, ay < bottom else { return }
        let dxdy = (bx - ax) / (by - ay)
        // Clip in y, always interpolating from the original start to avoid drift.
        let y0 = max(ay, top), y1 = min(by, bottom)
        guard y1 > y0 else { return }
        let x0 = ay < top ? ax + (top - ay) * dxdy : ax
        let x1 = by > bottom ? ax + (bottom - ay) * dxdy : bx
        // Split where the edge crosses the left and right sides (at most two places).
        var splitA = y1, splitB = y1
        if (x0 - left) * (x1 - left) < 0 { splitA = y0 + (left - x0) / (x1 - x0) * (y1 - y0) }
        if (x0 - right) * (x1 - right) < 0 { splitB = y0 + (right - x0) / (x1 - x0) * (y1 - y0) }
        if splitA > splitB { swap(&splitA, &splitB) }
        let width = right - left
        @inline(__always) func xAt(_ y: Double) -> Double {
            y == y1 ? x1 : x0 + (y - y0) * (x1 - x0) / (y1 - y0)
        }
        @inline(__always) func piece(_ ya: Double, _ yb: Double) {
            guard yb > ya else { return }
            accumulate(
                xa: min(max(xAt(ya), left), right) - left, ya: ya - top,
                xb: min(max(xAt(yb), left), right) - left, yb: yb - top,
                direction: direction, cells: cells, stride: stride, rows: rows, width: width, marks: &marks)
        }
        piece(y0, splitA)
        piece(splitA, splitB)
        piece(splitB, y1)
    }

    /// Accumulates a downward edge from `(xa, ya)` to `(xb, yb)` in band coordinates, with both x in
    /// `0...width` and `0 <= ya < yb <= rows`.
    @inline(__always)
    private static func accumulate(
        xa: Double, ya: Double, xb: Double, yb: Double, direction: Float,
        cells: UnsafeMutablePointer<Float>, stride: Int, rows: Int, width: Double, marks: inout [UInt64]
    ) {
        guard yb > ya else { return }
        let dxdy = (xb - xa) / (yb - ya)
        var x = xa
        var y = Int(ya)
        let yEnd = min(rows, Int(yb.rounded(.up)))
        while y < yEnd {
            let rowTop = max(Double(y), ya)
            let rowBottom = min(Double(y + 1), yb)
            let xNext = rowBottom == yb ? xb : min(max(xa + (rowBottom - ya) * dxdy, 0), width)
            let d = Float(rowBottom - rowTop) * direction
            let line = cells + y * stride
            let (lo, hi) = x < xNext ? (x, xNext) : (xNext, x)
            let loFloor = lo.rounded(.down)
            let loIndex = Int(loFloor)
            let hiCeil = hi.rounded(.up)
            let hiIndex = Int(hiCeil)
            marks.append(UInt64(y) << 42 | UInt64(loIndex) << 21 | UInt64(max(hiIndex, loIndex + 1)))
            if hiIndex <= loIndex + 1 {
                // Within one column: the part right of the edge's mean x is covered.
                let middle = Float(0.5 * (x + xNext) - loFloor)
                line[loIndex] += d - d * middle
                line[loIndex + 1] += d * middle
            } else {
                let s = Float(1 / (hi - lo))
                let loFraction = Float(lo - loFloor)
                let first = 0.5 * s * (1 - loFraction) * (1 - loFraction)
                let hiFraction = Float(hi - hiCeil + 1)
                let last = 0.5 * s * hiFraction * hiFraction
                line[loIndex] += d * first
                if hiIndex == loIndex + 2 {
                    line[loIndex + 1] += d * (1 - first - last)
                } else {
                    let second = s * (1.5 - loFraction)
                    line[loIndex + 1] += d * (second - first)
                    var column = loIndex + 2
                    let step = d * s
                    while column < hiIndex - 1 {
                        line[column] += step
                        column += 1
                    }
                    let beforeLast = second + Float(hiIndex - loIndex - 3) * s
                    line[hiIndex - 1] += d * (1 - beforeLast - last)
                }
                line[hiIndex] += d * last
            }
            x = xNext
            y += 1
        }
    }

    /// `floor(value)` as an Int, clamped to a range every canvas fits in (NaN-safe callers only).
    @inline(__always)
    static func floorInt(_ value: Double) -> Int { Int(min(max(value.rounded(.down), -1e9), 1e9)) }

    /// `ceil(value)` as an Int, clamped like `floorInt`.
    @inline(__always)
    static func ceilInt(_ value: Double) -> Int { Int(min(max(value.rounded(.up), -1e9), 1e9)) }
}
