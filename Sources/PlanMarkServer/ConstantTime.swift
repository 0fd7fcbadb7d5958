/// Comparisons whose running time does not depend on where two secrets differ.
enum ConstantTime {
    /// True when `lhs` and `rhs` hold the same bytes. Time depends only on the lengths, not on the
    /// contents, so a client cannot learn a token's prefix by timing.
    /// - Complexity: O(max(lhs.count, rhs.count)).
    static func equal(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        let a = Array(lhs), b = Array(rhs)
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count) | UInt8(a.count == b.count ? 0 : 1)
        let length = max(a.count, b.count)
        for index in 0..<length {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
