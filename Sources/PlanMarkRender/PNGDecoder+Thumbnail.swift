extension PNGDecoder {
    /// The rows decoded at once by `thumbnail`.
    static let thumbnailBandRows = 16

    /// Decodes a PNG held in memory into a picture that fits `maxWidth` x `maxHeight` pixels (aspect kept, never
    /// enlarged), flattened onto white: the rows are decoded a band at a time and box-averaged into the picture
    /// as they come, so the memory needed is the picture plus one band of rows, whatever the PNG's size. An
    /// interlaced (Adam7) PNG cannot be read by rows: it is decoded whole when it has at most
    /// `maxInterlacedPixels` pixels, else refused with `imageTooManyPixels` before any pixel memory is taken. The
    /// decoder's own limits (`maxSide`, `maxPixels`) are checked from the header first.
    /// - Complexity: O(width × height) time; O(maxWidth × maxHeight + 16 × width) memory (non-interlaced).
    public func thumbnail(data: [UInt8], source: String, maxWidth: Int, maxHeight: Int,
                          maxInterlacedPixels: Int = 16_000_000) throws(RenderError) -> RGBAImage {
        let result: Result<RGBAImage, RenderError> = data.withUnsafeBufferPointer { bytes in
            Result { () throws(RenderError) -> RGBAImage in
                let session = try PNGReadSession(bytes: bytes, source: source, decoder: self)
                let header = try session.readHeader()
                try checkLimits(header, source: source)
                let scale = min(1, Double(max(1, maxWidth)) / Double(header.width), Double(max(1, maxHeight)) / Double(header.height))
                let outWidth = max(1, min(header.width, Int((Double(header.width) * scale).rounded()))),
                    outHeight = max(1, min(header.height, Int((Double(header.height) * scale).rounded())))
                var box = BoxDownscaler(width: header.width, height: header.height, outWidth: outWidth, outHeight: outHeight)
                if try session.beginRows(header) {
                    let bandRows = Self.thumbnailBandRows
                    let band = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bandRows * header.width * 4)
                    defer { band.deallocate() }
                    var row = 0
                    while row < header.height {
                        let count = min(bandRows, header.height - row)
                        try session.readRows(into: band.baseAddress!, count: count)
                        box.add(rows: UnsafeBufferPointer(band), count: count)
                        row += count
                    }
                } else {
                    let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
                    if overflow || pixels > maxInterlacedPixels {
                        throw .imageTooManyPixels(source: source, width: header.width, height: header.height, maxPixels: maxInterlacedPixels)
                    }
                    let all = try session.readPixels(header)
                    all.withUnsafeBufferPointer { box.add(rows: $0, count: header.height) }
                }
                return box.finish()
            }
        }
        return try result.get()
    }
}

/// Shrinks an RGBA image fed row by row into `outWidth` x `outHeight`, each output pixel the mean of the block of
/// input pixels it covers (input columns `[ox·W/w, (ox+1)·W/w)`, rows likewise), composited onto white first so
/// that transparent pixels average as white paper. Holds one row of sums and the output.
struct BoxDownscaler {
    let width: Int, height: Int, outWidth: Int, outHeight: Int
    /// The output column of each input column.
    private var column: [Int32]
    /// Sums of the current output row: r, g, b and the pixel count, per output column.
    private var sums: [UInt64]
    private var output: [UInt8]
    private var row = 0
    private var outRow = 0

    /// - Precondition: `1...width` holds `outWidth`, `1...height` holds `outHeight`.
    init(width: Int, height: Int, outWidth: Int, outHeight: Int) {
        precondition(outWidth >= 1 && outWidth <= width && outHeight >= 1 && outHeight <= height)
        self.width = width
        self.height = height
        self.outWidth = outWidth
        self.outHeight = outHeight
        column = (0..<width).map { Int32($0 * outWidth / width) }
        sums = [UInt64](repeating: 0, count: outWidth * 4)
        output = [UInt8](repeating: 255, count: outWidth * outHeight * 4)
    }

    /// Adds `count` rows (`count * width * 4` bytes of `rows`, straight-alpha RGBA).
    /// - Complexity: O(count × width).
    mutating func add(rows: UnsafeBufferPointer<UInt8>, count: Int) {
        var r = 0
        while r < count {
            sums.withUnsafeMutableBufferPointer { sumBuffer in
                column.withUnsafeBufferPointer { columnBuffer in
                    let sum = sumBuffer.baseAddress!, target = columnBuffer.baseAddress!
                    var p = rows.baseAddress! + r * width * 4
                    for x in 0..<width {
                        let a = UInt64(p[3]), white = 255 * (255 - a)
                        let o = sum + Int(target[x]) * 4
                        o[0] &+= UInt64(p[0]) &* a &+ white
                        o[1] &+= UInt64(p[1]) &* a &+ white
                        o[2] &+= UInt64(p[2]) &* a &+ white
                        o[3] &+= 1
                        p += 4
                    }
                }
            }
            r += 1
            row += 1
            // Emit when the next input row starts another output row (or this was the last).
            if row == height || row * outHeight / height != (row - 1) * outHeight / height { emitRow() }
        }
    }

    /// Writes the means of the current output row and clears the sums.
    /// - Complexity: O(outWidth).
    private mutating func emitRow() {
        guard outRow < outHeight else { return }
        let base = outRow * outWidth * 4
        for ox in 0..<outWidth {
            let o = ox * 4
            let n = max(1, sums[o + 3]) * 255
            output[base + o] = UInt8((sums[o] + n / 2) / n)
            output[base + o + 1] = UInt8((sums[o + 1] + n / 2) / n)
            output[base + o + 2] = UInt8((sums[o + 2] + n / 2) / n)
            output[base + o + 3] = 255
        }
        for i in sums.indices { sums[i] = 0 }
        outRow += 1
    }

    /// The picture (opaque).
    func finish() -> RGBAImage { RGBAImage(width: outWidth, height: outHeight, pixels: output) }
}
