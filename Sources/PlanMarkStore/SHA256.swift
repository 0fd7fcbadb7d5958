#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SHA-256 (FIPS 180-4), streaming.
///
/// Why not apple/swift-crypto: on Linux it compiles BoringSSL (about a minute on two cores, on every CI run)
/// for one hash of one file per `drawing add`. This is the textbook algorithm, checked against the NIST
/// FIPS 180-4 example vectors and against `sha256sum` in the tests.
public struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
    )
    private var block: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// A hash of no bytes yet.
    public init() {
        block.reserveCapacity(64)
    }

    /// Adds `bytes` to the message.
    /// - Complexity: O(n) for n bytes.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        length &+= UInt64(bytes.count)
        var w = [UInt32](repeating: 0, count: 64)
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            var start = 0
            // Top up a partial block, then hash whole blocks straight from the buffer.
            while !block.isEmpty && start < buffer.count {
                block.append(buffer[start])
                start += 1
                if block.count == 64 {
                    compressBlock(&w)
                    block.removeAll(keepingCapacity: true)
                }
            }
            while buffer.count - start >= 64 {
                compress(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[start..<(start + 64)])), &w)
                start += 64
            }
            block.append(contentsOf: buffer[start...])
        }
        if done == nil {
            for byte in bytes {
                block.append(byte)
                if block.count == 64 {
                    compressBlock(&w)
                    block.removeAll(keepingCapacity: true)
                }
            }
        }
    }

    /// The digest of everything added (the hash itself is left unchanged).
    public func finalize() -> [UInt8] {
        var copy = self
        let bitLength = length &* 8
        var w = [UInt32](repeating: 0, count: 64)
        copy.block.append(0x80)
        if copy.block.count > 56 {
            while copy.block.count < 64 { copy.block.append(0) }
            copy.compressBlock(&w)
            copy.block.removeAll(keepingCapacity: true)
        }
        while copy.block.count < 56 { copy.block.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { copy.block.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        copy.compressBlock(&w)
        let s = copy.state
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in [s.0, s.1, s.2, s.3, s.4, s.5, s.6, s.7] {
            digest.append(contentsOf: [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)])
        }
        return digest
    }

    /// The digest as 64 lowercase hexadecimal digits, as `sha256sum` prints it.
    public func hexDigest() -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in finalize() {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The digest of `bytes` in hexadecimal.
    public static func hexDigest(of bytes: some Collection<UInt8>) -> String {
        var hash = SHA256()
        hash.update(bytes)
        return hash.hexDigest()
    }

    /// The digest of the file at `path` in hexadecimal, read in 1 MiB blocks.
    /// - Complexity: O(file size).
    public static func hexDigest(ofFile path: String) throws(StoreError) -> String {
        guard let file = fopen(path, "rb") else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .missingImage(path: path) }
            throw .io("\(path): \(String(cString: strerror(code)))")
        }
        defer { fclose(file) }
        var hash = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress!, 1, $0.count, file) }
            if count > 0 { hash.update(buffer[0..<count]) }
            if count < buffer.count {
                if ferror(file) != 0 { throw .io("\(path): \(String(cString: strerror(errno)))") }
                break
            }
        }
        return hash.hexDigest()
    }

    /// Compresses the buffered 64-byte `block`.
    private mutating func compressBlock(_ w: inout [UInt32]) {
        let full = block
        full.withUnsafeBufferPointer { compress(UnsafeRawBufferPointer($0), &w) }
    }

    /// One round of the compression function over a 64-byte block.
    private mutating func compress(_ block: UnsafeRawBufferPointer, _ w: inout [UInt32]) {
        assert(block.count == 64)
        @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        for t in 0..<16 {
            w[t] = UInt32(block[4 * t]) << 24 | UInt32(block[4 * t + 1]) << 16 | UInt32(block[4 * t + 2]) << 8 | UInt32(block[4 * t + 3])
        }
        for t in 16..<64 {
            let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
            let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        for t in 0..<64 {
            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let ch = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ ch &+ Self.k[t] &+ w[t]
            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ maj
            h = g; g = f; f = e; e = d &+ t1
            d = c; c = b; b = a; a = t1 &+ t2
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }
}
