import PlanMarkGeometry

/// 256 rows of one level's premultiplied samples, owned by whoever holds the last reference (the level
/// while it fills them, then the encoders).
final class BandStorage: @unchecked Sendable {
    let samples: UnsafeMutablePointer<UInt16>
    let count: Int

    init(width: Int) {
        count = TileScheme.tileSize * width * 4
        // Rows are written before they are read; the unfilled rest is zeroed when a short band is handed on.
        samples = .allocate(capacity: count)
    }

    deinit { samples.deallocate() }
}
