import PlanMarkFormats

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The uuid of a marker the store numbered without a uuid from its client: a version-8 UUID (RFC 9562
/// section 5.8) made of the drawing's 60-bit random `uuidSeed` (48 bits, the version, 12 bits) and, after
/// the variant, the marker's number. Nothing is stored for it: the `marker.uuid` column holds only clients'
/// uuids, so an import of a million markers from a plain position file writes no uuid and no index entry
/// (storing a made uuid a marker doubled the table and the import's time).
///
/// Unique in the store: numbers are unique per drawing and never reused, seeds are random per drawing
/// (60 bits), and a client's uuid of this form naming a drawing of the store is refused unless it names
/// that drawing's marker itself (`StoreBackend.marker(_:uuid:)`).
public enum DerivedUUID {
    /// The uuid of marker `number` of the drawing with `seed`.
    /// - Complexity: O(1).
    public static func make(seed: Int64, number: Int) -> MarkerUUID {
        let seed = UInt64(bitPattern: seed) & 0x0FFF_FFFF_FFFF_FFFF
        let high = (seed >> 12) << 16 | 0x8000 | (seed & 0xFFF)
        let low = 0x8000_0000_0000_0000 | (UInt64(number) & 0x3FFF_FFFF_FFFF_FFFF)
        let text = String(unsafeUninitializedCapacity: 36) { buffer in
            let hex: StaticString = "0123456789abcdef"
            var out = 0
            for (index, word) in [high, low].enumerated() {
                for nibble in (0..<16).reversed() {
                    let position = index * 16 + 15 - nibble
                    if position == 8 || position == 12 || position == 16 || position == 20 {
                        buffer[out] = UInt8(ascii: "-")
                        out += 1
                    }
                    buffer[out] = hex.utf8Start[Int((word >> UInt64(4 * nibble)) & 15)]
                    out += 1
                }
            }
            return out
        }
        return MarkerUUID(canonical: text)
    }

    /// The seed and number `uuid` was made from, when it has this form (version 8, variant 10); nil otherwise.
    /// - Complexity: O(1).
    public static func parts(of uuid: MarkerUUID) -> (seed: Int64, number: Int)? {
        let hex = uuid.text.utf8.filter { $0 != UInt8(ascii: "-") }
        guard hex.count == 32 else { return nil }
        func value(_ range: Range<Int>) -> UInt64 {
            hex[range].reduce(0) { $0 << 4 | UInt64($1 <= UInt8(ascii: "9") ? $1 - 48 : $1 - 87) }
        }
        let high = value(0..<16), low = value(16..<32)
        guard (high >> 12) & 0xF == 8, low >> 62 == 2 else { return nil }
        let seed = (high >> 16) << 12 | (high & 0xFFF)
        return (Int64(bitPattern: seed), Int(low & 0x3FFF_FFFF_FFFF_FFFF))
    }

    /// A new drawing's seed: 60 random bits, never 0.
    package static func newSeed() -> Int64 {
        var random = SystemRandomNumberGenerator()
        return Int64(bitPattern: random.next() & 0x0FFF_FFFF_FFFF_FFFF) | 1
    }
}
