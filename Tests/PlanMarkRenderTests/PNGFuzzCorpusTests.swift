import Foundation
import PlanMarkRender
import Testing

/// The PNG fuzzing corpus (`Benchmarks/fuzz/corpus/png/`) through the fuzz target's entry point,
/// `PNGDecoder().decode(data:source:)` with the default limits: an image or a typed `RenderError`.
@Suite struct PNGFuzzCorpusTests {
    /// Benchmarks/fuzz/corpus/png, found from this file's path (symbolic links resolved).
    static let folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Benchmarks/fuzz/corpus/png")

    static let files: [URL] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }()

    enum Expectation { case image, error, either }

    /// PngSuite's `x*` files and the oversized headers must be refused; libpng's crashers, the
    /// trailing-garbage file and fuzzer findings (`finding-*`) may go either way; the other PngSuite
    /// files must decode.
    static func expectation(_ name: String) -> Expectation {
        if name.hasPrefix("x") || name.hasPrefix("header_") { return .error }
        if name.hasPrefix("finding-") || name.hasPrefix("bad") || name.hasPrefix("huge_") || name.hasPrefix("empty_")
            || name.hasPrefix("idat_") { return .either }
        return .image
    }

    @Test func corpusIsThere() async {
        #expect(Self.files.count >= 30, "\(Self.folder.path)")
    }

    @Test(arguments: files)
    func decodesOrRefuses(_ url: URL) async throws {
        let bytes = Array(try Data(contentsOf: url))
        let name = url.lastPathComponent
        do {
            let image = try PNGDecoder().decode(data: bytes, source: name)
            #expect(Self.expectation(name) != .error, "decoded \(name)")
            #expect(image.width > 0 && image.height > 0 && image.pixels.count == image.width * image.height * 4)
            // The file entry point gives the same pixels.
            #expect(try PNGDecoder().decode(path: url.path).pixels == image.pixels)
        } catch {
            #expect(Self.expectation(name) != .image, "\(error)")
            #expect(error.description.hasPrefix(name + ": ") && !error.description.contains("\n"), "\(error)")
        }
    }
}
