import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

/// A drawing's tiles as both front doors name them: which levels (`tileScheme`) and which pyramid (`tileKey`).
extension Drawing {
    /// The levels a PDF drawing has above its pyramid, drawn from the page's vectors: two, so a page counted at 300 dpi
    /// is drawn at up to 1200 dpi when zoomed in (sharper lines, not bigger pixels). A PNG drawing has none.
    public static let pdfVectorLevels = 2

    /// The drawing's tile levels: its pyramid's (`minZoom...maxZoom`, from its pixels) and, for a page of a PDF,
    /// `pdfVectorLevels` more drawn from the page (`topZoom`); nil when its zoom cannot be tiled.
    /// - Complexity: O(log(max(width, height))).
    public var tileScheme: TileScheme? {
        TileScheme(width: width, height: height, zoom: zoom, vectorLevels: pdf == nil ? 0 : Self.pdfVectorLevels)
    }

    /// The name of the drawing's pyramid (its folder under a tile root, and `v` of its tile URLs): the image's SHA-256,
    /// and for a page of a PDF its page and dpi (`TileKey`).
    package var tileKey: TileKey {
        guard let pdf else { return TileKey(sha256: imageSHA256) }
        return TileKey(sha256: imageSHA256, page: pdf.page, dpi: pdf.dpi)
    }
}
