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
        let width = width, height = height
        pixels.withUnsafeMutableBufferPointer { buffer in
            Self.flattenOntoWhite(buffer.baseAddress!, width: width, height: height, rows: rows)
        }
    }

    /// Composites the pixels of `rows` of a `width × height` RGBA image at `pixels` onto opaque white, in
    /// place; threads may flatten disjoint rows of one image at once.
    /// - Complexity: O(width × rows).
    static func flattenOntoWhite(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, rows: Range<Int>) {
        let rows = rows.clamped(to: 0..<height)
        guard !rows.isEmpty else { return }
        let rowBytes = width * 4
        var offset = rows.lowerBound * rowBytes + 3
        let count = rows.upperBound * rowBytes
        while offset < count {
            let alpha = Int(pixels[offset])
            if alpha != 255 {
                let white = 255 * (255 - alpha) + 127
                pixels[offset - 3] = UInt8((Int(pixels[offset - 3]) * alpha + white) / 255)
                pixels[offset - 2] = UInt8((Int(pixels[offset - 2]) * alpha + white) / 255)
                pixels[offset - 1] = UInt8((Int(pixels[offset - 1]) * alpha + white) / 255)
                pixels[offset] = 255
            }
            offset += 4
        }
    }
}
