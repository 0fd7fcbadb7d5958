import Foundation
import PlanMarkRender
import PlanMarkTestSupport

/// Where the shared fixtures and this target's own fixtures live, found from this file's path.
enum PNGFixtures {
    /// Tests/PlanMarkRenderTests/
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// The repository root.
    static let repositoryRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
    /// ../shared/fixtures beside the repository.
    static let shared = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    /// ../shared/fixtures/pngsuite
    static let pngSuite = shared.appendingPathComponent("pngsuite")
    /// ../shared/fixtures/png-bombs
    static let pngBombs = shared.appendingPathComponent("png-bombs")
    /// Pillow's expectations (see Fixtures/make_expected.py).
    static let expected = testsFolder.appendingPathComponent("Fixtures/pngsuite-expected")

    /// Paths of the `.png` files directly inside `folder`, sorted.
    static func pngFiles(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".png") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    /// Top-level PngSuite images, x* (must-fail) ones excluded or only.
    static func suite(mustFail: Bool) -> [String] {
        pngFiles(in: pngSuite).filter { ($0.fileName.hasPrefix("x")) == mustFail }
    }

    /// The fixture folders of libpng's extra test images that must decode (crashers excluded).
    static let libpngFolders = [
        "libpng-pngsuite", "libpng-pngsuite/interlaced", "libpng-testpngs", "libpng-testpngs/badpal",
        "libpng-testpngs/png-3",
    ]

    /// One line of Fixtures/pngsuite-expected/manifest.txt.
    struct Expectation: CustomStringConvertible, Sendable {
        /// "<group>/<stem>", e.g. "pngsuite/basn0g01".
        var key: String
        var width: Int
        var height: Int
        var hasGammaChunk: Bool
        var description: String { key }

        /// The source image under ../shared/fixtures/pngsuite.
        var sourcePath: String {
            let parts = key.split(separator: "/", maxSplits: 1).map(String.init)
            let folder: String
            switch parts[0] {
            case "pngsuite": folder = ""
            case "libpng-pngsuite": folder = "libpng-pngsuite/"
            case "libpng-pngsuite-interlaced": folder = "libpng-pngsuite/interlaced/"
            case "libpng-testpngs": folder = "libpng-testpngs/"
            case "libpng-testpngs-badpal": folder = "libpng-testpngs/badpal/"
            case "libpng-testpngs-png-3": folder = "libpng-testpngs/png-3/"
            default: folder = "unknown-group/"
            }
            return PNGFixtures.pngSuite.appendingPathComponent(folder + parts[1] + ".png").path
        }

        /// Pillow's RGBA decoding, stored as an RGBA 8-bit PNG.
        var expectedPath: String { PNGFixtures.expected.appendingPathComponent(key + ".png").path }
    }

    /// Every expectation Pillow produced.
    static let expectations: [Expectation] = {
        let url = expected.appendingPathComponent("manifest.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 4, let width = Int(fields[1]), let height = Int(fields[2]) else { return nil }
            return Expectation(key: String(fields[0]), width: width, height: height, hasGammaChunk: fields[3] == "gamma")
        }
    }()

    /// A fresh empty folder under the temporary directory.
    static func temporaryFolder() throws -> URL {
        try TestFolder.make("planmark-png")
    }
}

extension String {
    /// The last path component.
    var fileName: String { (self as NSString).lastPathComponent }
}

/// A PNG chunk as found by walking the byte stream (independent of libpng).
struct PNGChunk: Equatable {
    var type: String
    var data: [UInt8]
}

/// Splits PNG bytes into chunks after the 8-byte signature; nil when the structure is broken.
func pngChunks(_ bytes: [UInt8]) -> [PNGChunk]? {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return nil }
    var chunks: [PNGChunk] = []
    var position = 8
    while position + 12 <= bytes.count {
        let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8
            | Int(bytes[position + 3])
        guard position + 12 + length <= bytes.count else { return nil }
        let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
        chunks.append(PNGChunk(type: type, data: Array(bytes[(position + 8)..<(position + 8 + length)])))
        position += 12 + length
    }
    return position == bytes.count ? chunks : nil
}

/// Largest per-byte difference between two equally long pixel buffers (Int.max when lengths differ).
func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    guard a.count == b.count else { return Int.max }
    var worst = 0
    for index in a.indices { worst = max(worst, abs(Int(a[index]) - Int(b[index]))) }
    return worst
}
