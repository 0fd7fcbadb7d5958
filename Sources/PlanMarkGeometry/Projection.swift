/// The `LonLat` projection of `CRS.Simple`: a projected point is `(lng, lat)`, nothing more.
///
/// flutter_map's `_LonLat` also clamps on the way back (`lat` to [-90, 90], `lng` to [-180, 180]);
/// Leaflet's does not. `clampsOnUnproject` selects the behaviour.
public struct LonLatProjection: Hashable, Sendable {
    /// True for flutter_map's projection, which clamps unprojected coordinates.
    public var clampsOnUnproject: Bool

    /// Creates the projection; `clampsOnUnproject` is true for flutter_map.
    public init(clampsOnUnproject: Bool) {
        self.clampsOnUnproject = clampsOnUnproject
    }

    /// `(x: lng, y: lat)`, as both libraries' `project`.
    @inlinable
    public func project(_ latLng: LatLng) -> (x: Double, y: Double) {
        (latLng.lng, latLng.lat)
    }

    /// `LatLng(lat: y, lng: x)`, clamped like flutter_map's `inclusiveLat` / `inclusiveLng` when asked.
    @inlinable
    public func unproject(x: Double, y: Double) -> LatLng {
        guard clampsOnUnproject else { return LatLng(lat: y, lng: x) }
        return LatLng(lat: Self.inclusive(y, -90, 90), lng: Self.inclusive(x, -180, 180))
    }

    /// flutter_map's `_inclusive`: below `start` gives `start`, above `end` gives `end`, else the value
    /// itself (so NaN and `-0.0` pass through unchanged).
    @inlinable
    static func inclusive(_ value: Double, _ start: Double, _ end: Double) -> Double {
        if value < start { return start }
        if value > end { return end }
        return value
    }
}
