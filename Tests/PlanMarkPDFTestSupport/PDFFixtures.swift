import Foundation
import PlanMarkRender
import PlanMarkTestSupport

/// The PDF fixtures, written once a test process by `make_pdfs.py` (pycairo; pypdf for the encrypted one), and
/// pdftoppm's reference renders. What each fixture holds, in points, is written at the top of `make_pdfs.py`.
public enum PDFFixtures {
    /// Debian's Python, which has pycairo (the `python3` on PATH may be another one).
    public static let python = "/usr/bin/python3"
    /// poppler-utils' rasteriser, the reference for renders.
    public static let pdftoppm = "/usr/bin/pdftoppm"

    /// Why the fixtures cannot be made here, or nil when they can.
    public static let missingTools: String? = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return "\(python) is not installed" }
        guard run(python, ["-c", "import cairo"]).0 == 0 else { return "pycairo is not installed (python3-cairo)" }
        guard FileManager.default.isExecutableFile(atPath: pdftoppm) else { return "poppler-utils (pdftoppm) is not installed" }
        return nil
    }()

    /// The folder with the fixtures, or why it could not be made.
    public static let made: Result<URL, FixtureError> = {
        let folder: URL
        do { folder = try TestFolder.make("pdf-fixtures") } catch { return .failure(FixtureError(message: "\(error)")) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("make_pdfs.py").path
        let (status, output) = run(python, [script, folder.path])
        guard status == 0 else { return .failure(FixtureError(message: "make_pdfs.py failed (\(status)): \(output)")) }
        return .success(folder)
    }()

    /// A fixture's path.
    public static func path(_ name: String) throws -> String {
        try made.get().appendingPathComponent(name).path
    }

    /// A fixture's bytes.
    public static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: try path(name))))
    }

    /// True when the encrypted fixture could be written (pypdf or qpdf was there).
    public static var hasEncrypted: Bool {
        guard let path = try? path("encrypted.pdf") else { return false }
        return FileManager.default.fileExists(atPath: path)
    }

    /// pdftoppm's render of a rectangle of a page (`-r dpi -x -y -W -H`), decoded by PlanMarkRender.
    public static func reference(_ name: String, page: Int, dpi: Int, x: Int, y: Int, width: Int, height: Int) throws -> RGBAImage {
        let prefix = TestFolder.path("pdftoppm").path
        let arguments = [
            "-f", "\(page)", "-l", "\(page)", "-r", "\(dpi)", "-x", "\(x)", "-y", "\(y)", "-W", "\(width)", "-H", "\(height)",
            "-png", "-singlefile", try path(name), prefix,
        ]
        let (status, output) = run(pdftoppm, arguments)
        guard status == 0 else { throw FixtureError(message: "pdftoppm failed (\(status)): \(output)") }
        return try PNGDecoder().decode(path: prefix + ".png")
    }

    /// Runs a program to its end: its exit status and what it wrote (stdout and stderr together).
    public static func run(_ program: String, _ arguments: [String]) -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = ChildProcess.pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try ChildProcess.run(process) } catch { return (-1, "\(error)") }
        let output = pipe.fileHandleForReading.readBytesToEnd()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}

/// A fixture that could not be made.
public struct FixtureError: Error, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    public var description: String { message }

    public init(message: String) { self.message = message }
}

/// The mean of |a - b| over the red, green and blue bytes of two images of one size.
/// - Complexity: O(n) for n pixels.
public func meanDifference(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    var total = 0
    for offset in stride(from: 0, to: a.pixels.count, by: 4) {
        for channel in 0..<3 { total += abs(Int(a.pixels[offset + channel]) - Int(b.pixels[offset + channel])) }
    }
    return Double(total) / Double(max(1, a.width * a.height * 3))
}

/// The RGBA bytes of pixel (x, y).
public func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
    let offset = (y * image.width + x) * 4
    return Array(image.pixels[offset..<offset + 4])
}
