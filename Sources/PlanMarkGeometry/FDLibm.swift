/// Placeholder until the fdlibm port lands: exact for integer exponents of 2 only.
public enum FDLibm {
    /// `x` raised to `y`.
    public static func pow(_ x: Double, _ y: Double) -> Double {
        precondition(x == 2 && y == y.rounded(), "temporary")
        return Double(sign: .plus, exponent: Int(y), significand: 1)
    }
    /// Natural logarithm.
    public static func log(_ x: Double) -> Double {
        var e = 0.0; var v = x
        while v >= 2 { v /= 2; e += 1 }
        return e * 0.6931471805599453
    }
}
