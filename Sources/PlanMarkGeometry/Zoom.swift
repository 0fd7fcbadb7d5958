/// A map zoom level. Any finite value: negative and fractional zooms are allowed, as in Leaflet.
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

extension Zoom: CustomStringConvertible {
    /// The zoom as Swift prints a `Double`.
    public var description: String { value.description }
}
