import Foundation
import Testing
@testable import PlanMarkStore
import PlanMarkTestSupport

/// SHA-256 against the FIPS 180-4 examples and against `sha256sum`.
@Suite struct SHA256Tests {
    /// NIST's published examples (FIPS 180-4 / CSRC "SHA256.pdf", plus the empty message).
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func nistVectors(message: String, digest: String) async {
        #expect(SHA256.hexDigest(of: Array(message.utf8)) == digest)
    }

    /// One million 'a' (NIST's long message), fed in uneven pieces.
    @Test func millionA() async {
        var hash = SHA256()
        var remaining = 1_000_000
        var piece = 1
        while remaining > 0 {
            let n = min(piece, remaining)
            hash.update(repeatElement(UInt8(ascii: "a"), count: n))
            remaining -= n
            piece = piece * 3 + 1
        }
        #expect(hash.hexDigest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Files around the padding boundaries (55, 56, 63, 64, 65 bytes ...) agree with `sha256sum`.
    @Test(arguments: [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, (1 << 20) + 17])
    func agreesWithSha256sum(length: Int) async throws {
        let folder = try StoreFixtures.folder()
        let url = folder.appendingPathComponent("data.bin")
        var generator = SeededGenerator()
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(bytes).write(to: url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", url.path]
        let pipe = ChildProcess.pipe()
        process.standardOutput = pipe
        try ChildProcess.run(process)
        let output = String(decoding: pipe.fileHandleForReading.readBytesToEnd(), as: UTF8.self)
        process.waitUntilExit()
        let expected = String(output.prefix(64))
        #expect(expected.count == 64, "sha256sum printed \(output)")
        #expect(try SHA256.hexDigest(ofFile: url.path) == expected, "\(length) bytes (seed \(generator.seed))")
        #expect(SHA256.hexDigest(of: bytes) == expected, "\(length) bytes (seed \(generator.seed))")
    }

    @Test func missingFile() async {
        #expect(throws: StoreError.missingImage(path: "/nonexistent/x.png")) { try SHA256.hexDigest(ofFile: "/nonexistent/x.png") }
    }
}
