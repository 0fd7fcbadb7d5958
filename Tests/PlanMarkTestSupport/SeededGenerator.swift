#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SplitMix64: the one source of random test inputs in every test target, so every run sees the same
/// values and a failure can be replayed. Failure messages print `seed N`.
///
/// `SeededGenerator()` starts from the suite seed: `PLANMARK_TEST_SEED` (decimal, or hexadecimal with
/// `0x`) when it is set, otherwise a fixed default; rerun with `PLANMARK_TEST_SEED=N` to see the same
/// inputs again. Tests that pin their own seed pass it to `init(seed:)`.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The fixed default seed, used when `PLANMARK_TEST_SEED` is not set.
    public static let defaultSeed: UInt64 = 0x5EED_D0C5

    /// `PLANMARK_TEST_SEED` when set (a malformed value stops the run rather than being ignored),
    /// otherwise `defaultSeed`.
    public static let suiteSeed: UInt64 = {
        guard let raw = getenv("PLANMARK_TEST_SEED") else { return defaultSeed }
        let text = String(cString: raw)
        let trimmed = text.filter { $0 != " " && $0 != "\t" }
        let value = trimmed.lowercased().hasPrefix("0x")
            ? UInt64(trimmed.dropFirst(2).filter { $0 != "_" }, radix: 16)
            : UInt64(trimmed)
        guard let value else { fatalError("PLANMARK_TEST_SEED=\(text) is not a decimal or 0x-hexadecimal UInt64") }
        return value
    }()

    /// The seed this generator started from; put it in every failure message that depends on its values.
    public let seed: UInt64
    private var state: UInt64

    /// Starts from `seed` (the suite seed by default).
    public init(seed: UInt64 = SeededGenerator.suiteSeed) {
        self.seed = seed
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
