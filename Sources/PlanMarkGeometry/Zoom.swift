/// A map zoom level. Negative and fractional zooms are allowed, as in Leaflet; PlanMark accepts zooms in
/// `Zoom.supported` (-64...64) wherever they enter (CLI, store, service), so that `2^z` and every
/// conversion of a drawing-sized coordinate stay finite and meaningful.
public struct Zoom: Hashable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// The zoom as a number.
    public var value: Double

    /// Creates a zoom level.
    @inlinable
    public init(_ value: Double) { self.value = value }

    /// Creates a zoom level from a literal such as `8` or `2.5`.
    public init(floatLiteral value: Double) { self.value = value }

    /// Creates a zoom level from an integer literal.
    public init(integerLiteral value: Int) { self.value = Double(value) }
}

extension Zoom {
    /// The zooms PlanMark accepts: |z| <= 64. Map clients use about -10...30; 2^64 keeps every pixel
    /// of a 100,000-pixel sheet, and every latLng a client can send for it, finite.
    public static let supported: ClosedRange<Double> = -64...64

    /// `supported` as users read it.
    public static let supportedDescription = "-64...64"

    /// True when the zoom is finite and within `supported`.
    @inlinable
    public var isSupported: Bool { Zoom.supported.contains(value) }
}

extension Zoom: CustomStringConvertible {
    /// The zoom as Swift prints a `Double`.
    public var description: String { value.description }
}
