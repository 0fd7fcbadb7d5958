/// One tile of a drawing's pyramid, addressed as Leaflet's `TileLayer` and flutter_map's `TileLayer`
/// ask for it under `CRS.Simple`: `{z}/{x}/{y}`, `x` to the right, `y` down (row 0 at the top).
public struct TileCoordinate: Hashable, Sendable, CustomStringConvertible {
    /// The zoom in the drawing's CRS flavour (may be negative).
    public var z: Int
    /// The column, from 0 at the left.
    public var x: Int
    /// The row, from 0 at the top.
    public var y: Int

    /// Creates a tile address.
    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// `z/x/y`.
    public var description: String { "\(z)/\(x)/\(y)" }
}

/// The tile pyramid of a drawing of `width` x `height` pixels whose image pixels are CRS pixels at the
/// server zoom `zoom` (S), in either CRS flavour.
///
/// Tile `(z, x, y)` covers the full-resolution pixels `[x*256*f, (x+1)*256*f) x [y*256*f, (y+1)*256*f)`
/// with `f = 2^(S-z)`. In both flavours a client's CRS pixel at zoom `z` is image pixel / `f` (the
/// flavours differ only in the latLng unit), and both `TileLayer`s ask for tile `floor(pixel / 256)`.
/// Levels run from `maxZoom = floor(S)` (no upsampling) down to `minZoom`, the first level at which the
/// whole drawing fits in one tile: the pyramid, made from the image's pixels.
///
/// A drawing drawn from vectors (a page of a PDF) has `vectorLevels` more above it, `maxZoom + 1` through `topZoom`:
/// the same tile grid (`f = 2^(S - z)` below 1), each tile drawn from the vectors at `1 / f` times the image's
/// resolution, transparent beyond `extent(at:)` like the pyramid's edge tiles.
public struct TileScheme: Hashable, Sendable {
    /// Tile side in pixels.
    public static let tileSize = 256

    /// Image width in pixels (at least 1).
    public let width: Int
    /// Image height in pixels (at least 1).
    public let height: Int
    /// The server zoom S.
    public let zoom: Zoom
    /// `floor(S)`.
    public let maxZoom: Int
    /// The highest level at which the whole image fits in one 256x256 tile.
    public let minZoom: Int
    /// Levels above `maxZoom` drawn from the drawing's vectors (0 for an image; 2 for a page of a PDF).
    public let vectorLevels: Int

    /// Creates the scheme, or nil when a side is not positive, S is not a supported zoom or `vectorLevels` is not
    /// in 0...16.
    /// - Complexity: O(log(max(width, height))).
    public init?(width: Int, height: Int, zoom: Zoom, vectorLevels: Int = 0) {
        guard width > 0, height > 0, zoom.isSupported, (0...16).contains(vectorLevels) else { return nil }
        self.width = width
        self.height = height
        self.zoom = zoom
        self.vectorLevels = vectorLevels
        let top = Int(zoom.value.rounded(.down))
        maxZoom = top
        var z = top
        // f doubles at each level down; stop when the larger side fits in 256 pixels of that level.
        while Double(max(width, height)) / TileScheme.factor(zoom: zoom, level: z) > Double(TileScheme.tileSize) { z -= 1 }
        minZoom = z
    }

    /// `f = 2^(S - z)`: full-resolution pixels per tile pixel at level `z`.
    public func factor(at level: Int) -> Double { TileScheme.factor(zoom: zoom, level: level) }

    static func factor(zoom: Zoom, level: Int) -> Double {
        // S - z is exact in doubles for |S| <= 64 and the levels a drawing has; 2^(integer) is exact.
        let difference = zoom.value - Double(level)
        let whole = difference.rounded(.down)
        let fraction = difference - whole
        let power = fraction == 0 ? 1 : FDLibm.pow(2, fraction)
        return power * Double(sign: .plus, exponent: Int(whole), significand: 1)
    }

    /// The pyramid's zoom levels (made from the image's pixels), lowest first.
    public var levels: ClosedRange<Int> { minZoom...maxZoom }

    /// The highest level served: `maxZoom + vectorLevels`.
    public var topZoom: Int { maxZoom + vectorLevels }

    /// Every level served, the pyramid's and those drawn from vectors: `minZoom...topZoom`.
    public var servedLevels: ClosedRange<Int> { minZoom...topZoom }

    /// The image's extent at `level` in that level's pixels, `width / f` x `height / f` (not rounded: a tile pixel
    /// the edge crosses is that much covered).
    /// - Complexity: O(1).
    public func extent(at level: Int) -> (width: Double, height: Double) {
        let f = factor(at: level)
        return (Double(width) / f, Double(height) / f)
    }

    /// Columns of tiles at `level`: `ceil(width / (256 f))`.
    public func columns(at level: Int) -> Int { Self.count(width, factor(at: level)) }

    /// Rows of tiles at `level`: `ceil(height / (256 f))`.
    public func rows(at level: Int) -> Int { Self.count(height, factor(at: level)) }

    /// The level's image size in tile pixels, `ceil(width / f)` x `ceil(height / f)` (the last column
    /// and row may be partly covered).
    public func levelSize(at level: Int) -> (width: Int, height: Int) {
        let f = factor(at: level)
        return (Int((Double(width) / f).rounded(.up)), Int((Double(height) / f).rounded(.up)))
    }

    private static func count(_ side: Int, _ f: Double) -> Int {
        Int((Double(side) / (Double(tileSize) * f)).rounded(.up))
    }

    /// True when `tile` is in the pyramid (`levels`).
    public func contains(_ tile: TileCoordinate) -> Bool {
        levels.contains(tile.z) && tile.x >= 0 && tile.y >= 0 && tile.x < columns(at: tile.z) && tile.y < rows(at: tile.z)
    }

    /// True when `tile` is served: in the pyramid, or on a level drawn from vectors (`servedLevels`).
    /// - Complexity: O(1).
    public func serves(_ tile: TileCoordinate) -> Bool {
        servedLevels.contains(tile.z) && tile.x >= 0 && tile.y >= 0 && tile.x < columns(at: tile.z) && tile.y < rows(at: tile.z)
    }

    /// Every tile in the pyramid.
    public var tileCount: Int { levels.reduce(0) { $0 + columns(at: $1) * rows(at: $1) } }
}
