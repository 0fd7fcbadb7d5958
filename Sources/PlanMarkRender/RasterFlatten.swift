extension RGBAImage {
    /// Composites every pixel onto opaque white, in place, so the image is opaque afterwards.
    /// Pixels that are already opaque are left as they are.
    /// - Complexity: O(width × height), no allocation.
    mutating func flattenOntoWhite() {
        flattenOntoWhite(rows: 0..<height)
    }

    /// Composites the pixels of `rows` onto opaque white, in place.
    /// - Complexity: O(width × rows).
    mutating func flattenOntoWhite(rows: Range<Int>) {
        let rows = rows.clamped(to: 0..<height)
        guard !rows.isEmpty else { return }
        let rowBytes = width * 4
        pixels.withUnsafeMutableBufferPointer { buffer in
            var offset = rows.lowerBound * rowBytes + 3
            let count = rows.upperBound * rowBytes
            while offset < count {
                let alpha = Int(buffer[offset])
                if alpha != 255 {
                    let white = 255 * (255 - alpha) + 127
                    buffer[offset - 3] = UInt8((Int(buffer[offset - 3]) * alpha + white) / 255)
                    buffer[offset - 2] = UInt8((Int(buffer[offset - 2]) * alpha + white) / 255)
                    buffer[offset - 1] = UInt8((Int(buffer[offset - 1]) * alpha + white) / 255)
                    buffer[offset] = 255
                }
                offset += 4
            }
        }
    }
}
