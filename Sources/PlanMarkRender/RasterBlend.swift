/// Source-over compositing of a solid colour onto 8-bit straight-alpha RGBA pixels.
enum RasterBlend {
    /// Blends `colour` at opacity `alpha` (0...255, coverage already applied) onto the pixel at byte
    /// `offset`. An opaque destination (the usual case: the canvas is flattened onto white first)
    /// stays opaque; a translucent one gets the general straight-alpha source-over.
    @inline(__always)
    static func blend(_ pixels: UnsafeMutablePointer<UInt8>, at offset: Int, colour: Colour, alpha: Int) {
        assert(alpha >= 0 && alpha <= 255)
        let p = pixels + offset
        let inverse = 255 - alpha
        let destinationAlpha = Int(p[3])
        if destinationAlpha == 255 {
            p[0] = UInt8((Int(colour.red) * alpha + Int(p[0]) * inverse + 127) / 255)
            p[1] = UInt8((Int(colour.green) * alpha + Int(p[1]) * inverse + 127) / 255)
            p[2] = UInt8((Int(colour.blue) * alpha + Int(p[2]) * inverse + 127) / 255)
            return
        }
        // outA = a + dA(1 - a); outC = (c·a + d·dA(1 - a)) / outA, all in units of 255.
        let below = destinationAlpha * inverse  // dA(1 - a), in 255² units
        let outAlpha255 = alpha * 255 + below  // in 255² units
        guard outAlpha255 > 0 else {
            p[0] = 0; p[1] = 0; p[2] = 0; p[3] = 0
            return
        }
        let half = outAlpha255 / 2
        p[0] = UInt8((Int(colour.red) * alpha * 255 + Int(p[0]) * below + half) / outAlpha255)
        p[1] = UInt8((Int(colour.green) * alpha * 255 + Int(p[1]) * below + half) / outAlpha255)
        p[2] = UInt8((Int(colour.blue) * alpha * 255 + Int(p[2]) * below + half) / outAlpha255)
        p[3] = UInt8((outAlpha255 + 127) / 255)
    }
}

/// Blends a solid colour onto RGBA pixels at each span's coverage × the colour's alpha.
struct SolidFillSink: RasterSpanSink {
    /// The image's first byte.
    let pixels: UnsafeMutablePointer<UInt8>
    /// The image's width in pixels.
    let width: Int
    /// The colour.
    let colour: Colour
    /// The colour's alpha, 0...255, as a float.
    let opacity: Float

    @inline(__always)
    mutating func span(y: Int, x0: Int, x1: Int, coverage: Float) {
        let alpha = Int(coverage * opacity + 0.5)
        guard alpha > 0 else { return }
        if alpha == 255 {
            // Fully covered by an opaque colour: every pixel becomes the colour, opaque, whatever was below
            // (what `blend` gives at alpha 255), stored four bytes at a time. The inside of a marker, its
            // halo and the legend's panel are such spans.
            let word = (UInt32(colour.red) | UInt32(colour.green) << 8 | UInt32(colour.blue) << 16 | 0xFF00_0000).littleEndian
            let row = UnsafeMutableRawPointer(pixels + (y * width + x0) * 4)
            for i in 0..<(x1 - x0) { row.storeBytes(of: word, toByteOffset: i * 4, as: UInt32.self) }
            return
        }
        let inverse = UInt32(255 - alpha)
        let red = UInt32(colour.red) * UInt32(alpha) + 127
        let green = UInt32(colour.green) * UInt32(alpha) + 127
        let blue = UInt32(colour.blue) * UInt32(alpha) + 127
        var p = pixels + (y * width + x0) * 4
        for _ in x0..<x1 {
            if p[3] == 255 {
                p[0] = UInt8(truncatingIfNeeded: (red &+ UInt32(p[0]) &* inverse) / 255)
                p[1] = UInt8(truncatingIfNeeded: (green &+ UInt32(p[1]) &* inverse) / 255)
                p[2] = UInt8(truncatingIfNeeded: (blue &+ UInt32(p[2]) &* inverse) / 255)
            } else {
                RasterBlend.blend(p, at: 0, colour: colour, alpha: alpha)
            }
            p += 4
        }
    }

    @inline(__always)
    mutating func cells(y: Int, x0: Int, coverage: UnsafeBufferPointer<Float>) {
        var offset = (y * width + x0) * 4
        let word = (UInt32(colour.red) | UInt32(colour.green) << 8 | UInt32(colour.blue) << 16 | 0xFF00_0000).littleEndian
        for value in coverage {
            let alpha = Int(value * opacity + 0.5)
            if alpha == 255 {
                // As in `span`: full coverage of an opaque colour is the colour, whatever was below.
                UnsafeMutableRawPointer(pixels + offset).storeBytes(of: word, as: UInt32.self)
            } else if alpha > 0 {
                RasterBlend.blend(pixels, at: offset, colour: colour, alpha: alpha)
            }
            offset += 4
        }
    }
}

extension Rasteriser {
    /// Fills `path` with `colour` onto `image`, each pixel blended at coverage × the colour's alpha.
    /// Only pixels of the path's bounding box (clipped to the image and to `clip`) are touched.
    /// - Complexity: as `rasterise`, plus one blend per covered pixel.
    mutating func fill(
        _ path: RasterPath, rule: RasterFillRule = .nonZero, colour: Colour, into image: inout RGBAImage,
        clip: PixelRect? = nil
    ) {
        guard colour.alpha > 0, !path.isEmpty else { return }
        let width = image.width, height = image.height
        image.pixels.withUnsafeMutableBufferPointer { buffer in
            fill(path, rule: rule, colour: colour, pixels: buffer.baseAddress!, width: width, height: height, clip: clip)
        }
    }

    /// `fill(_:rule:colour:into:clip:)` onto the pixels of a `width × height` RGBA image at `pixels`, touching
    /// only rows and columns inside `clip`: threads drawing disjoint clips of one image may call it at once.
    /// - Complexity: as `rasterise`, plus one blend per covered pixel.
    mutating func fill(
        _ path: RasterPath, rule: RasterFillRule = .nonZero, colour: Colour, pixels: UnsafeMutablePointer<UInt8>,
        width: Int, height: Int, clip: PixelRect? = nil
    ) {
        guard colour.alpha > 0, !path.isEmpty else { return }
        var canvas = PixelRect(x0: 0, y0: 0, x1: width, y1: height)
        if let clip { canvas = canvas.intersection(clip) }
        var sink = SolidFillSink(pixels: pixels, width: width, colour: colour, opacity: Float(colour.alpha))
        rasterise(path, rule: rule, clip: canvas, into: &sink)
    }
}
