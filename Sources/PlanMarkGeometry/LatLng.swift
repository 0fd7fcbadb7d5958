/// A map position as a `CRS.Simple` client sends it: `lat` grows up (north), `lng` grows right (east).
///
/// In `CRS.Simple` these are not geographic degrees but plain plane coordinates at zoom 0
/// (Leaflet) or at a scale of 256 (flutter_map).
public struct LatLng: Hashable, Sendable, Encodable {
    /// The vertical map coordinate; grows upwards, so it is the negated pixel `y` over the scale.
    public var lat: Double
    /// The horizontal map coordinate; the pixel `x` over the scale.
    public var lng: Double

    /// Creates a map position.
    @inlinable
    public init(lat: Double, lng: Double) {
        self.lat = lat
        self.lng = lng
    }

    /// True when both coordinates are finite.
    @inlinable
    public var isFinite: Bool { lat.isFinite && lng.isFinite }

    /// `[lat, lng]`, as Leaflet takes a latLng.
    public func encode(to encoder: any Encoder) throws {
        var pair = encoder.unkeyedContainer()
        try pair.encode(lat)
        try pair.encode(lng)
    }
}

/// The corners of a drawing in map coordinates, as a client passes them to an image overlay.
public struct LatLngBounds: Hashable, Sendable, Encodable {
    /// The bottom-left corner of the image (the largest `y`, the smallest `x`).
    public var southWest: LatLng
    /// The top-right corner of the image (`y` = 0, the largest `x`).
    public var northEast: LatLng

    /// Creates bounds from two corners.
    public init(southWest: LatLng, northEast: LatLng) {
        self.southWest = southWest
        self.northEast = northEast
    }
}
