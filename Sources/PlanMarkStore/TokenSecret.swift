import PlanMarkFormats

/// How tokens are made and recognised.
public enum TokenSecret {
    /// What every token begins with, so that a leaked one is recognised (as GitHub's `ghp_`).
    public static let prefix = "pmk_"
    /// Random bytes in a token.
    public static let randomBytes = 32

    /// A new secret: `prefix` and `randomBytes` bytes of `SystemRandomNumberGenerator` (the kernel's getrandom on
    /// Linux, arc4random on Darwin: cryptographically secure), base64url without padding.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<randomBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return prefix + base64URL(bytes)
    }

    /// What the store keeps of `secret`: its SHA-256, hexadecimal.
    public static func digest(_ secret: String) -> String { SHA256.hexDigest(of: Array(secret.utf8)) }

    /// RFC 4648 §5 base64url, no padding.
    /// - Complexity: O(n).
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (k, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * k) }
            for k in 0..<(chunk.count + 1) { out.append(alphabet[Int((value >> (18 - 6 * k)) & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension AnnotationStore {
    /// `addToken` as of now (today's date in UTC).
    public func addToken(for name: String, label: String?, expires: DueDate?) async throws(StoreError) -> NewToken {
        try await addToken(for: name, label: label, expires: expires, today: .today, at: .now())
    }

    /// `addProject` made now.
    public func addProject(named name: String) async throws(StoreError) -> Project {
        try await addProject(named: name, at: .now())
    }
}
