/// Which map library's `CRS.Simple` a client uses.
public enum CRSFlavour: String, CaseIterable, Sendable, Codable {
    /// Leaflet's `L.CRS.Simple` (1.x and 2.0): scale `2^z`, no clamping.
    case leaflet
    /// flutter_map's `CrsSimple`: scale `256 * 2^z`, latLng clamped to [-90, 90] x [-180, 180].
    case flutter
}

/// `CRS.Simple` of Leaflet or flutter_map: pixel <-> latLng at any zoom, bit-identical to the library.
///
/// Pixels here are the client's CRS pixels at that zoom: `x` right, `y` down. `lat` grows up, so
/// `y = -lat * scale` and `lat = -(y / scale)`. `scale(z)` is `2^z` (Leaflet) or `256 * 2^z`
/// (flutter_map), with `pow` computed as JavaScript engines compute `Math.pow` (fdlibm), so
/// fractional zooms match Leaflet bit for bit. Integer zooms are exact everywhere; for fractional
/// zooms Dart's `pow` is the platform's C library, which agrees with fdlibm to within one ulp.
public struct SimpleCRS: Hashable, Sendable {
    /// The library whose behaviour this reproduces.
    public var flavour: CRSFlavour
    /// `(1, 0, -1, 0)` in both libraries.
    public var transformation: Transformation { .simple }
    /// `LonLat`, clamping on unproject for flutter_map.
    public var projection: LonLatProjection { LonLatProjection(clampsOnUnproject: flavour == .flutter) }

    /// Creates the CRS of one flavour.
    public init(_ flavour: CRSFlavour = .leaflet) {
        self.flavour = flavour
    }

    /// Leaflet's `L.CRS.Simple`.
    public static let leaflet = SimpleCRS(.leaflet)
    /// flutter_map's `CrsSimple`.
    public static let flutter = SimpleCRS(.flutter)

    /// Pixels per latLng unit at `zoom`: `2^z`, or `256 * 2^z` for flutter_map.
    @inlinable
    public func scale(at zoom: Zoom) -> Double {
        let power = FDLibm.pow(2, zoom.value)
        switch flavour {
        case .leaflet: return power
        case .flutter: return 256 * power
        }
    }

    /// The zoom at which the scale is `scale`: Leaflet's `Math.log(scale) / Math.LN2`, flutter_map's
    /// `log(scale / 256) / ln2`.
    public func zoom(forScale scale: Double) -> Zoom {
        let ln2 = 0.6931471805599453
        switch flavour {
        case .leaflet: return Zoom(FDLibm.log(scale) / ln2)
        case .flutter: return Zoom(FDLibm.log(scale / 256) / ln2)
        }
    }

    /// The scale the transformation applies at `zoom`: `scale(at:)`, except that Leaflet's
    /// `Transformation` takes `scale || 1`, so a scale of 0 (2^z underflows, z <= -1075) becomes 1.
    @inlinable
    public func transformationScale(at zoom: Zoom) -> Double {
        let s = scale(at: zoom)
        if flavour == .leaflet && (s == 0 || s.isNaN) { return 1 }
        return s
    }

    /// latLng to pixels at `zoom` (`latLngToPoint`).
    @inlinable
    public func pixel(from latLng: LatLng, at zoom: Zoom) -> PixelPoint {
        let projected = projection.project(latLng)
        return transformation.transform(x: projected.x, y: projected.y, scale: transformationScale(at: zoom))
    }

    /// Pixels at `zoom` to latLng (`pointToLatLng`); flutter_map clamps the result.
    @inlinable
    public func latLng(from pixel: PixelPoint, at zoom: Zoom) -> LatLng {
        let unprojected = transformation.untransform(pixel, scale: transformationScale(at: zoom))
        return projection.unproject(x: unprojected.x, y: unprojected.y)
    }

    /// The bounds of a drawing of `size` pixels shown so that image pixels are CRS pixels at `zoom`:
    /// south-west is pixel `(0, height)`, north-east is pixel `(width, 0)`.
    public func bounds(of size: DrawingSize, at zoom: Zoom) -> LatLngBounds {
        LatLngBounds(
            southWest: latLng(from: PixelPoint(x: 0, y: size.height), at: zoom),
            northEast: latLng(from: PixelPoint(x: size.width, y: 0), at: zoom)
        )
    }

    /// True when every pixel of a drawing of `size` converts to latLng at `zoom` without clamping.
    /// Always true for Leaflet; for flutter_map the drawing must fit in 180 x 360 latLng units.
    public func representsWithoutClamping(_ size: DrawingSize, at zoom: Zoom) -> Bool {
        guard flavour == .flutter else { return true }
        let s = scale(at: zoom)
        return size.height / s <= 90 && size.width / s <= 180
    }
}
