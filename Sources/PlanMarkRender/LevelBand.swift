import PlanMarkGeometry

/// One level being made: the band of rows not yet handed on. Rows pair up for the level below inside a
/// band (bands start at multiples of 256 rows, an even number).
final class LevelBand {
    let z: Int
    let width: Int
    let columns: Int
    let below: LevelBand?
    private let deliver: (TileBatch) throws -> Void
    private var band: BandStorage
    private var filled = 0
    private var tileRow = 0

    init(z: Int, width: Int, columns: Int, below: LevelBand?, deliver: @escaping (TileBatch) throws -> Void) {
        self.z = z
        self.width = width
        self.columns = columns
        self.below = below
        self.deliver = deliver
        band = BandStorage(width: width)
    }

    /// Takes the next row of this level, written in place by `fill` (`width * 4` samples).
    /// - Complexity: O(width), plus the rows this makes below.
    func add(_ fill: (UnsafeMutablePointer<UInt16>) throws -> Void) throws {
        let n = width * 4
        try fill(band.samples + filled * n)
        filled += 1
        if let below, filled % 2 == 0 {
            let a = UnsafePointer(band.samples + (filled - 2) * n), b = UnsafePointer(band.samples + (filled - 1) * n)
            let width = self.width
            try below.add { Self.halve(a, b, width, $0) }
        }
        if filled == TileScheme.tileSize { try flush() }
    }

    /// Hands on what is left (an odd last row paired with transparency, a short band) at this level and below.
    func finish() throws {
        if let below, filled % 2 == 1 {
            let n = width * 4
            let zeros = [UInt16](repeating: 0, count: n)
            let a = UnsafePointer(band.samples + (filled - 1) * n), width = self.width
            try zeros.withUnsafeBufferPointer { b in try below.add { Self.halve(a, b.baseAddress!, width, $0) } }
        }
        if filled > 0 { try flush() }
        try below?.finish()
    }

    private func flush() throws {
        let n = width * 4
        if filled < TileScheme.tileSize {
            (band.samples + filled * n).update(repeating: 0, count: (TileScheme.tileSize - filled) * n)
        }
        let batch = TileBatch(z: z, row: tileRow, width: width, columns: columns, band: band)
        band = BandStorage(width: width)
        filled = 0
        tileRow += 1
        try deliver(batch)
    }

    /// Averages two rows of `width` pixels in 2x2 blocks into `(width + 1) / 2` pixels; an odd last
    /// column is averaged with transparency.
    /// - Complexity: O(width).
    static func halve(_ a: UnsafePointer<UInt16>, _ b: UnsafePointer<UInt16>, _ width: Int, _ out: UnsafeMutablePointer<UInt16>) {
        let pairs = width / 2
        for ox in 0..<pairs {
            let i = ox * 8, o = ox * 4
            for c in 0..<4 {
                let sum = UInt32(a[i + c]) &+ UInt32(a[i + 4 + c]) &+ UInt32(b[i + c]) &+ UInt32(b[i + 4 + c])
                out[o + c] = UInt16(truncatingIfNeeded: (sum &+ 2) >> 2)
            }
        }
        if width % 2 == 1 {
            let i = (width - 1) * 4, o = pairs * 4
            for c in 0..<4 {
                out[o + c] = UInt16(truncatingIfNeeded: (UInt32(a[i + c]) &+ UInt32(b[i + c]) &+ 2) >> 2)
            }
        }
    }
}
