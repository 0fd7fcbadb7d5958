import Foundation

/// One entry of the review display list.
enum ReviewItem: Sendable {
    /// Fill `paths[index]` with a colour (non-zero).
    case path(Int, Colour)
    /// Fill a marker shape (its path is rebuilt per band: cheaper to keep than thousands of paths).
    case shape(ReviewMarkerShape, Colour)
    /// Draw text with its pen at `(x, baseline)`.
    case text(String, size: Int, x: Int, baseline: Int, Colour)
}

extension ReviewPainter {
    /// Files a copy of `path` filled with `colour` in the display list.
    mutating func record(colour: Colour) {
        guard colour.alpha > 0, !path.isEmpty else { return }
        let top = Rasteriser.floorInt(path.minY)
        paths.append(path)
        record(.path(paths.count - 1, colour), rows: top..<max(top, Rasteriser.ceilInt(path.maxY)))
    }

    /// Files text in the display list; `extent` is its measure, used for the rows it touches.
    mutating func recordText(_ text: String, size: Int, x: Int, baseline: Int, extent: TextFont.Extent, colour: Colour) {
        guard colour.alpha > 0 else { return }
        record(.text(text, size: size, x: x, baseline: baseline, colour),
               rows: (baseline + extent.inkMinY)..<max(baseline + extent.inkMinY, baseline + extent.inkMaxY))
    }

    /// Files an item that touches only `rows`, dropping it when they are off the image.
    mutating func record(_ item: ReviewItem, rows: Range<Int>) {
        let visible = rows.clamped(to: 0..<(isOverlay ? viewHeight : image.height))
        guard !visible.isEmpty else { return }
        items.append(item)
        itemRows.append(visible)
    }

    /// Rows per band: about 512 KB of pixels, so one band stays in the cache while every item
    /// crossing it is drawn.
    var bandRows: Int { max(8, 524_288 / max(1, image.width * 4)) }

    /// Draws the display list band by band: within a band (flattened onto white first when `flatten`),
    /// every item crossing it in recorded order, clipped to the band (and the drawing's items to the view). Each pixel of the image is then
    /// brought into the cache once instead of once per shape, which is what makes thousands of small
    /// markers cheap on a large sheet; and since bands share no pixels they are drawn on every core,
    /// with the same pixels as one thread would draw.
    /// - Complexity: O(pixels) for flattening, plus per item O(edges × bands it crosses + its area),
    ///   divided over `workerCount` threads.
    mutating func paint(flatten: Bool) throws(ReviewError) {
        let height = image.height, width = image.width
        let rowsPerBand = bandRows
        let bandCount = (height + rowsPerBand - 1) / rowsPerBand
        // Items crossing each band, in recorded order: `start[b]..<start[b + 1]` of `members`.
        var start = [Int](repeating: 0, count: bandCount + 1)
        for rows in itemRows {
            for band in (rows.lowerBound / rowsPerBand)...((rows.upperBound - 1) / rowsPerBand) { start[band + 1] += 1 }
        }
        for band in 0..<bandCount { start[band + 1] += start[band] }
        var fillPosition = start
        var members = [Int](repeating: 0, count: start[bandCount])
        for (index, rows) in itemRows.enumerated() {
            for band in (rows.lowerBound / rowsPerBand)...((rows.upperBound - 1) / rowsPerBand) {
                members[fillPosition[band]] = index
                fillPosition[band] += 1
            }
        }
        let font = items.contains { if case .text = $0 { true } else { false } } ? try textFont() : nil
        // Bands touch disjoint rows, so they are drawn on every core: band b by worker b mod workers,
        // each with its own rasteriser buffers, marker path and FreeType face (a face is not shared
        // between threads). Interleaving spreads the busy bands (legend, dense markers) over the workers.
        let workers = Self.workerCount(bands: bandCount, pixels: width * height)
        var workerFonts: [TextFont?] = [font]
        for _ in 1..<max(1, workers) { workerFonts.append(try font.map { font throws(ReviewError) in try TextFont(path: font.path) }) }
        var rasterisers = [rasteriser] + [Rasteriser](repeating: Rasteriser(), count: max(0, workers - 1))
        // Shared read-only by the workers; each worker only ever uses its own font.
        let items = self.items, paths = self.paths, bandMembers = members, bandStart = start
        let viewItems = viewItemCount, viewWidth = self.viewWidth, viewHeight = self.viewHeight
        nonisolated(unsafe) let fonts = workerFonts
        image.pixels.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let pixels = buffer.baseAddress!
            rasterisers.withUnsafeMutableBufferPointer { rasterisers in
                nonisolated(unsafe) let rasterisers = rasterisers
                let work = { @Sendable (worker: Int) in
                    var shapePath = RasterPath()
                    let font = fonts[worker]
                    var band = worker
                    while band < bandCount {
                        let top = band * rowsPerBand, bottom = min(height, top + rowsPerBand)
                        if flatten { RGBAImage.flattenOntoWhite(pixels, width: width, height: height, rows: top..<bottom) }
                        let bandClip = PixelRect(x0: 0, y0: top, x1: width, y1: bottom)
                        let viewClip = bandClip.intersection(PixelRect(x0: 0, y0: 0, x1: viewWidth, y1: viewHeight))
                        for member in bandMembers[bandStart[band]..<bandStart[band + 1]] {
                            // The drawing's items stay on the view; the panel's may go anywhere.
                            let clip = member < viewItems ? viewClip : bandClip
                            guard !clip.isEmpty else { continue }
                            switch items[member] {
                            case .path(let index, let colour):
                                rasterisers[worker].fill(
                                    paths[index], colour: colour, pixels: pixels, width: width, height: height, clip: clip)
                            case .shape(let shape, let colour):
                                Self.build(shape, into: &shapePath)
                                // Even-odd: a ring's hole stays empty; a disc or pill is one contour either way.
                                rasterisers[worker].fill(
                                    shapePath, rule: .evenOdd, colour: colour, pixels: pixels, width: width, height: height, clip: clip)
                            case .text(let text, let size, let x, let baseline, let colour):
                                font?.draw(text, size: size, x: x, baseline: baseline, colour: colour, pixels: pixels,
                                           width: width, height: height, rows: clip.y0..<clip.y1, columns: clip.x0..<clip.x1)
                            }
                        }
                        band += workers
                    }
                }
                if workers <= 1 {
                    work(0)
                } else {
                    DispatchQueue.concurrentPerform(iterations: workers, execute: work)
                }
            }
        }
        rasteriser = rasterisers[0]
    }

    /// Threads for drawing: one per core (at most 8), one for images under a megapixel or a few bands.
    ///
    /// Measured on the render benchmark's A2 review (7016x4961, 2 cores, medians of 5 interleaved runs while
    /// other builds kept the load average near 19): draw phase 2.18 s on both cores, 3.05 s with the
    /// process pinned to one (`taskset -c 0`), the same pixels either way.
    /// - Complexity: O(1).
    static func workerCount(bands: Int, pixels: Int) -> Int {
        guard pixels >= 1 << 20, bands >= 4 else { return 1 }
        return max(1, min(8, ProcessInfo.processInfo.activeProcessorCount, bands / 2))
    }
}
