import PlanMarkGeometry

/// Turns full-resolution rows into the top level's rows and pushes them down the levels.
final class PyramidBuilder {
    let scheme: TileScheme
    private let top: LevelBand
    private let factor: Double
    private let topWidth: Int
    private let topHeight: Int
    private var sourceRow = 0
    // Fractional factor only: each source column's first target column and its share there.
    private var columnTarget: [Int] = []
    private var columnShare: [Double] = []
    private var horizontal: [Double] = []
    private var accumulated: [Double] = []
    private var next: [Double] = []
    private var accumulatedRow = 0

    /// Builds levels `scheme.maxZoom` down to `lowest`, handing each full (or last) band to `deliver`.
    init(scheme: TileScheme, lowest: Int, deliver: @escaping (TileBatch) throws -> Void) {
        self.scheme = scheme
        var level: LevelBand?
        for z in lowest...scheme.maxZoom {
            level = LevelBand(z: z, width: scheme.levelSize(at: z).width, columns: scheme.columns(at: z), below: level, deliver: deliver)
        }
        top = level!
        factor = scheme.factor(at: scheme.maxZoom)
        (topWidth, topHeight) = scheme.levelSize(at: scheme.maxZoom)
        if factor != 1 {
            columnTarget = [Int](repeating: 0, count: scheme.width)
            columnShare = [Double](repeating: 1, count: scheme.width)
            for i in 0..<scheme.width {
                let (j, w) = Self.share(i, factor, topWidth)
                columnTarget[i] = j
                columnShare[i] = w
            }
            horizontal = [Double](repeating: 0, count: topWidth * 4)
            accumulated = [Double](repeating: 0, count: topWidth * 4)
            next = [Double](repeating: 0, count: topWidth * 4)
        }
    }

    /// The output cell `j` that full-resolution cell `i` starts in, and the share of `[i, i+1)` inside
    /// `[j f, (j+1) f)`; the rest (if any) falls in `j + 1` (f >= 1).
    static func share(_ i: Int, _ f: Double, _ count: Int) -> (Int, Double) {
        let j = min(Int(Double(i) / f), count - 1)
        return (j, min(1, max(0, Double(j + 1) * f - Double(i))))
    }

    /// Feeds every row of `image`.
    func feed(_ image: RGBAImage) throws {
        try image.pixels.withUnsafeBufferPointer { try feed(rows: $0.baseAddress!, count: image.height) }
    }

    /// Feeds the next `count` full-resolution rows (8-bit straight RGBA, `scheme.width` pixels each).
    /// - Complexity: O(count × width).
    func feed(rows: UnsafePointer<UInt8>, count: Int) throws {
        let width = scheme.width
        for r in 0..<count {
            let row = rows.advanced(by: r * width * 4)
            if factor == 1 {
                try top.add { Self.premultiply(row, width, $0) }
            } else {
                try addFractional(row)
            }
            sourceRow += 1
        }
    }

    /// 8-bit straight RGBA to premultiplied 16-bit (value x 256); opaque pixels are shifted only.
    /// - Complexity: O(width).
    static func premultiply(_ row: UnsafePointer<UInt8>, _ width: Int, _ out: UnsafeMutablePointer<UInt16>) {
        // Every sample shifted (right for opaque pixels, alpha 255 becoming 65280) in one loop the compiler
        // vectorises, then the translucent pixels premultiplied.
        for i in 0..<width * 4 { out[i] = UInt16(row[i]) << 8 }
        for x in 0..<width {
            let p = x * 4
            let a = Int(row[p + 3])
            if a != 255 {
                out[p] = UInt16(truncatingIfNeeded: (Int(row[p]) * a * 256 + 127) / 255)
                out[p + 1] = UInt16(truncatingIfNeeded: (Int(row[p + 1]) * a * 256 + 127) / 255)
                out[p + 2] = UInt16(truncatingIfNeeded: (Int(row[p + 2]) * a * 256 + 127) / 255)
                out[p + 3] = UInt16(truncatingIfNeeded: a << 8)
            }
        }
    }

    private func addFractional(_ row: UnsafePointer<UInt8>) throws {
        let (j, wy) = Self.share(sourceRow, factor, topHeight)
        while j > accumulatedRow { try pushAccumulated() }
        let width = scheme.width, topWidth = self.topWidth
        horizontal.withUnsafeMutableBufferPointer { h in
            h.update(repeating: 0)
            columnTarget.withUnsafeBufferPointer { target in
                columnShare.withUnsafeBufferPointer { share in
                    for x in 0..<width {
                        let p = x * 4
                        let alpha = Double(row[p + 3])
                        let scale = alpha / 255
                        let jx = target[x], wx = share[x]
                        let o = jx * 4
                        let v0 = Double(row[p]) * scale, v1 = Double(row[p + 1]) * scale, v2 = Double(row[p + 2]) * scale
                        h[o] += v0 * wx
                        h[o + 1] += v1 * wx
                        h[o + 2] += v2 * wx
                        h[o + 3] += alpha * wx
                        if wx < 1 && jx + 1 < topWidth {
                            let rest = 1 - wx
                            h[o + 4] += v0 * rest
                            h[o + 5] += v1 * rest
                            h[o + 6] += v2 * rest
                            h[o + 7] += alpha * rest
                        }
                    }
                }
            }
        }
        let hasNext = wy < 1 && accumulatedRow + 1 < topHeight
        horizontal.withUnsafeBufferPointer { h in
            accumulated.withUnsafeMutableBufferPointer { a in
                for i in 0..<h.count { a[i] += h[i] * wy }
            }
            if hasNext {
                next.withUnsafeMutableBufferPointer { n in
                    for i in 0..<h.count { n[i] += h[i] * (1 - wy) }
                }
            }
        }
    }

    private func pushAccumulated() throws {
        let scale = 256 / (factor * factor)
        try accumulated.withUnsafeBufferPointer { a in
            try top.add { out in
                for i in 0..<a.count { out[i] = UInt16(min(65535, (a[i] * scale).rounded())) }
            }
        }
        swap(&accumulated, &next)
        next.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        accumulatedRow += 1
    }

    /// Hands on the last rows and bands of every level.
    func finish() throws {
        precondition(sourceRow == scheme.height, "TilePyramid: \(sourceRow) of \(scheme.height) rows fed")
        if factor != 1 {
            while accumulatedRow < topHeight { try pushAccumulated() }
        }
        try top.finish()
    }
}
