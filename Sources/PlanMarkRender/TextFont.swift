import Foundation
import CFreeType

/// A FreeType face (DejaVu Sans Bold by default) with a cache of rendered glyphs, for marker labels,
/// the legend and the title. Owns the FreeType library and face; not shared between threads.
final class TextFont {
    /// Where the font is looked for, in order: Debian/Ubuntu (`fonts-dejavu-core`), Fedora/Arch,
    /// Homebrew and macOS user installs.
    static let standardPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Bold.ttf",
        "/usr/local/share/fonts/DejaVuSans-Bold.ttf",
        "/opt/homebrew/share/fonts/DejaVuSans-Bold.ttf",
        "/Library/Fonts/DejaVuSans-Bold.ttf",
    ]

    /// A rendered glyph: 8-bit coverage rows and where they sit relative to the pen on the baseline.
    struct Glyph {
        /// Bitmap width in pixels.
        var width: Int
        /// Bitmap height in pixels.
        var rows: Int
        /// Columns from the pen to the bitmap's left edge.
        var left: Int
        /// Rows from the baseline up to the bitmap's top edge.
        var top: Int
        /// Pen advance in 1/64 pixel.
        var advance: Int
        /// `width × rows` coverage values, row by row.
        var coverage: [UInt8]
    }

    /// A text's extent in pixels relative to its pen origin on the baseline (y down).
    struct Extent: Hashable {
        /// Total pen advance.
        var advance: Int
        /// Ink box: left, top (negative is above the baseline), right, bottom (exclusive).
        var inkMinX: Int, inkMinY: Int, inkMaxX: Int, inkMaxY: Int
    }

    private struct Key: Hashable {
        var size: Int
        var scalar: UInt32
    }

    /// The font file loaded.
    let path: String
    private let library: FT_Library
    private let face: FT_Face
    private var currentSize = 0
    private var glyphs: [Key: Glyph] = [:]

    /// Loads the font at `path`, or the first one found at `standardPaths` when `path` is nil.
    init(path: String? = nil) throws(ReviewError) {
        let candidates = path.map { [$0] } ?? Self.standardPaths
        guard let found = candidates.first(where: { Self.isReadableFile($0) }) else {
            throw .fontNotFound(searched: candidates)
        }
        var library: FT_Library?
        var status = FT_Init_FreeType(&library)
        guard status == 0, let library else { throw .fontUnreadable(path: found, code: Int(status)) }
        var face: FT_Face?
        status = FT_New_Face(library, found, 0, &face)
        guard status == 0, let face else {
            FT_Done_FreeType(library)
            throw .fontUnreadable(path: found, code: Int(status))
        }
        self.path = found
        self.library = library
        self.face = face
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    private static func isReadableFile(_ path: String) -> Bool {
        guard let file = fopen(path, "rb") else { return false }
        fclose(file)
        return true
    }

    /// The glyph for `scalar` at `size` pixels (em height), rendered once and cached; a missing
    /// character renders as FreeType's `.notdef` glyph, an unrenderable one as empty.
    func glyph(_ scalar: Unicode.Scalar, size: Int) -> Glyph {
        let key = Key(size: size, scalar: scalar.value)
        if let cached = glyphs[key] { return cached }
        if currentSize != size {
            FT_Set_Pixel_Sizes(face, 0, FT_UInt(size))
            currentSize = size
        }
        var glyph = Glyph(width: 0, rows: 0, left: 0, top: 0, advance: 0, coverage: [])
        if FT_Load_Char(face, FT_ULong(scalar.value), Int32(FT_LOAD_RENDER)) == 0, let slot = face.pointee.glyph {
            let bitmap = slot.pointee.bitmap
            glyph.advance = Int(slot.pointee.advance.x)
            glyph.left = Int(slot.pointee.bitmap_left)
            glyph.top = Int(slot.pointee.bitmap_top)
            if bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue), let buffer = bitmap.buffer {
                glyph.width = Int(bitmap.width)
                glyph.rows = Int(bitmap.rows)
                let pitch = Int(bitmap.pitch)
                var coverage = [UInt8](repeating: 0, count: glyph.width * glyph.rows)
                for row in 0..<glyph.rows {
                    // A negative pitch means the rows are stored bottom-up from `buffer`.
                    let source = pitch >= 0 ? buffer + row * pitch : buffer + (glyph.rows - 1 - row) * -pitch
                    for column in 0..<glyph.width { coverage[row * glyph.width + column] = source[column] }
                }
                glyph.coverage = coverage
            }
        }
        glyphs[key] = glyph
        return glyph
    }

    /// True when the font has a glyph for `scalar` (not `.notdef`).
    /// - Complexity: O(1) (FreeType's character map lookup).
    func hasGlyph(_ scalar: Unicode.Scalar) -> Bool {
        FT_Get_Char_Index(face, FT_ULong(scalar.value)) != 0
    }

    /// The advance and ink box of `text` set at `size` pixels.
    /// - Complexity: O(characters).
    func measure(_ text: String, size: Int) -> Extent {
        var pen = 0
        var extent = Extent(advance: 0, inkMinX: Int.max, inkMinY: Int.max, inkMaxX: Int.min, inkMaxY: Int.min)
        for scalar in text.unicodeScalars {
            let g = glyph(scalar, size: size)
            if g.width > 0 && g.rows > 0 {
                let x = (pen + 32) >> 6
                extent.inkMinX = min(extent.inkMinX, x + g.left)
                extent.inkMaxX = max(extent.inkMaxX, x + g.left + g.width)
                extent.inkMinY = min(extent.inkMinY, -g.top)
                extent.inkMaxY = max(extent.inkMaxY, -g.top + g.rows)
            }
            pen += g.advance
        }
        extent.advance = (pen + 32) >> 6
        if extent.inkMinX > extent.inkMaxX {
            extent.inkMinX = 0; extent.inkMaxX = 0; extent.inkMinY = 0; extent.inkMaxY = 0
        }
        return extent
    }

    /// Draws `text` with its pen starting at whole pixel `(x, baseline)`, blending each glyph's
    /// coverage × the colour's alpha; pixels off the image or outside `rows` (when given) are skipped.
    /// - Complexity: O(characters + inked pixels).
    func draw(
        _ text: String, size: Int, x: Int, baseline: Int, colour: Colour, into image: inout RGBAImage, rows clipRows: Range<Int>? = nil
    ) {
        let width = image.width, height = image.height
        image.pixels.withUnsafeMutableBufferPointer { buffer in
            draw(text, size: size, x: x, baseline: baseline, colour: colour, pixels: buffer.baseAddress!,
                 width: width, height: height, rows: clipRows)
        }
    }

    /// `draw(_:size:x:baseline:colour:into:rows:)` onto the pixels of a `width × height` RGBA image at
    /// `pixels`, touching only `rows` and `columns` (when given): threads with their own `TextFont` drawing
    /// disjoint rows may call it at once.
    /// - Complexity: O(characters + inked pixels).
    func draw(
        _ text: String, size: Int, x: Int, baseline: Int, colour: Colour, pixels: UnsafeMutablePointer<UInt8>,
        width: Int, height: Int, rows clipRows: Range<Int>? = nil, columns clipColumns: Range<Int>? = nil
    ) {
        var pen = x << 6
        let rowRange = (clipRows ?? 0..<height).clamped(to: 0..<height)
        let columnRange = (clipColumns ?? 0..<width).clamped(to: 0..<width)
        let opacity = Int(colour.alpha)
        for scalar in text.unicodeScalars {
            let g = glyph(scalar, size: size)
            let left = ((pen + 32) >> 6) + g.left
            let top = baseline - g.top
            pen += g.advance
            guard g.width > 0 else { continue }
            let firstColumn = max(0, columnRange.lowerBound - left), endColumn = min(g.width, columnRange.upperBound - left)
            let firstRow = max(0, rowRange.lowerBound - top), endRow = min(g.rows, rowRange.upperBound - top)
            guard firstColumn < endColumn, firstRow < endRow else { continue }
            let columns = firstColumn..<endColumn, rows = firstRow..<endRow
            g.coverage.withUnsafeBufferPointer { coverage in
                for row in rows {
                    for column in columns {
                        let value = Int(coverage[row * g.width + column])
                        guard value > 0 else { continue }
                        let alpha = (value * opacity + 127) / 255
                        guard alpha > 0 else { continue }
                        let offset = ((top + row) * width + left + column) * 4
                        RasterBlend.blend(pixels, at: offset, colour: colour, alpha: alpha)
                    }
                }
            }
        }
    }
}
