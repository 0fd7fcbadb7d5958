import Foundation
import PlanMarkTestSupport
import PlanMarkRender
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Images checked when they enter the store, zoom range, decimal-only numbers, outputs whole or absent.
@Suite struct HardeningCommandTests {
    static let bombs = CLIRunner.repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/png-bombs")

    // MARK: drawing add refuses what render refuses

    /// A truncated PNG, a decompression bomb and an oversized header are refused with exit 65, and no
    /// store file is created for them.
    @Test(arguments: ["truncated", "bomb_1bit_30000x30000.png", "header_1000000x1000000.png", "header_1000001x1.png"])
    func refusedImagesCreateNoStore(fixture: String) async throws {
        let sandbox = try StoreSandbox()
        let path: String
        if fixture == "truncated" {
            let whole = try Data(contentsOf: URL(fileURLWithPath: try sandbox.png("whole.png", width: 300, height: 200)))
            path = sandbox.folder.appendingPathComponent("cut.png").path
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
        } else {
            path = Self.bombs.appendingPathComponent(fixture).path
            try #require(FileManager.default.fileExists(atPath: path), "missing fixture \(path): shared/ must be beside the repository")
        }
        let result = try sandbox.run(["drawing", "add", path, "--name", "B"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("planmark: \(path): ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.store))
    }

    /// The files render accepts (extra data after the image; a zTXt bomb, dropped) are accepted.
    @Test(arguments: ["idat_trailing_garbage.png", "ztxt_bomb_64MiB.png"])
    func acceptedOddImages(fixture: String) async throws {
        let sandbox = try StoreSandbox()
        let path = Self.bombs.appendingPathComponent(fixture).path
        try #require(FileManager.default.fileExists(atPath: path))
        #expect(try sandbox.run(["drawing", "add", path, "--name", "B"]).status == 0)
        let rendered = sandbox.folder.appendingPathComponent("r.png").path
        #expect(try sandbox.run(["render", "B", "-o", rendered]).status == 0)
    }

    /// The image served and rendered is the one added, even after the file is replaced or removed.
    @Test func renderUsesTheStoredImage() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        let plan = sandbox.folder.appendingPathComponent("plan.png")
        try FileManager.default.removeItem(at: plan)
        let out = sandbox.folder.appendingPathComponent("review.png").path
        let result = try sandbox.run(["render", "A", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNGDecoder().decode(path: out)
        #expect(image.width == 400 && image.height == 300)
    }

    @Test(arguments: ["tab\there", "nul-free but bell \u{7}", ""])
    func namesWithControlCharactersAreRefused(name: String) async throws {
        let sandbox = try StoreSandbox()
        let result = try sandbox.run(["drawing", "add", try sandbox.png(), "--name", name])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("planmark: name: "))
        #expect(!FileManager.default.fileExists(atPath: sandbox.store))
    }

    /// An argument that is not UTF-8 (here the byte 0xFF in a note) is refused before anything runs.
    @Test func argumentsMustBeUTF8() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"exec "$0" mark A 50 60 --note "$(printf 'bad \377 byte')" --store "$1""#, CLIRunner.binary.path, sandbox.store]
        let errors = ChildProcess.pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try ChildProcess.run(process)
        let stderr = String(decoding: errors.fileHandleForReading.readBytesToEnd(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(stderr == "planmark: argument 6: invalid UTF-8\n")
        #expect(try sandbox.markers().isEmpty)
    }

    // MARK: Zoom range and numbers

    @Test(arguments: [
        ["crs", "to-pixel", "--zoom", "5000", "1", "2"],
        ["crs", "to-pixel", "--zoom", "64.5", "1", "2"],
        ["crs", "to-pixel", "--zoom", "-65", "1", "2"],
        ["crs", "to-pixel", "--zoom", "inf", "1", "2"],
        ["crs", "to-pixel", "--zoom", "0x10", "1", "2"],
        ["crs", "to-pixel", "--zoom", "2", "0x1c2", "5"],
        ["crs", "to-pixel", "--zoom", "2", "nan", "5"],
        ["crs", "bounds", "--zoom", "100", "--size", "10x10"],
    ])
    func outOfRangeZoomsAndNonDecimalNumbersAreUsageErrors(arguments: [String]) throws {
        let result = try CLIRunner.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// The ends of the range work: 2^64 and 2^-64 are exact, so the results are worked out by hand.
    @Test func zoomRangeEnds() async throws {
        let high = try CLIRunner.run(["crs", "to-pixel", "--zoom", "64", "-1", "2"])
        #expect(high.status == 0 && high.stdout == "3.6893488147419103e+19 1.8446744073709552e+19\n")
        let low = try CLIRunner.run(["crs", "to-latlng", "--zoom", "-64", "1", "1"])
        #expect(low.status == 0 && low.stdout == "-1.8446744073709552e+19 1.8446744073709552e+19\n")
    }

    /// A result that is not finite is an error, never printed: a usage error (64) for the arguments,
    /// bad input data (65) for a stdin line.
    @Test func nonFiniteResultIsAnError() async throws {
        let result = try CLIRunner.run(["crs", "to-pixel", "--zoom", "64", "1e300", "1"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("planmark: ") && !result.stderr.contains("inf"))
        let piped = try CLIRunner.run(["crs", "to-pixel", "--zoom", "64"], stdin: Data("1 2\n1e300 1\n".utf8))
        #expect(piped.status == 65)
        #expect(piped.stdout == "3.6893488147419103e+19 -1.8446744073709552e+19\n")
        #expect(piped.stderr.hasPrefix("planmark: -:2: "))
    }

    @Test func drawingZoomOutsideTheRangeIsRefused() async throws {
        let sandbox = try StoreSandbox()
        let result = try sandbox.run(["drawing", "add", try sandbox.png(), "--name", "Z", "--zoom", "65"])
        #expect(result.status == 64)
        #expect(!FileManager.default.fileExists(atPath: sandbox.store))
    }

    // MARK: Outputs whole or not at all

    @Test func validateWritesTheReportFileWhole() async throws {
        let sandbox = try StoreSandbox()
        let regions = try sandbox.file("regions.geojson", StoreSandbox.regions)
        let markers = try sandbox.file("m.csv", "id,x,y\na,50,60\nb,5,5\n")
        let out = sandbox.folder.appendingPathComponent("report.csv").path
        let result = try CLIRunner.run(["validate", "--regions", regions, "--report", "csv", "-o", out, markers])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "id,x,y,valid,reason,regions\na,50,60,true,,A:inside;R1:inside\nb,5,5,false,outside-allowed-area,\n")
        #expect(try temporaryFiles(in: sandbox.folder).isEmpty)
    }

    /// Bad input after the output was opened: the old report stays as it was, and no temporary file is left.
    @Test func validateFailureKeepsTheOldReport() async throws {
        let sandbox = try StoreSandbox()
        let regions = try sandbox.file("regions.geojson", StoreSandbox.regions)
        let out = try sandbox.file("report.csv", "old report\n")
        let result = try CLIRunner.run(["validate", "--regions", regions, "--report", "csv", "-o", out, "nothing.csv"], in: sandbox.folder)
        #expect(result.status == 66)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "old report\n")
        #expect(try temporaryFiles(in: sandbox.folder).isEmpty)
        let missingFolder = try CLIRunner.run(["validate", "--regions", regions, "-o", sandbox.folder.path + "/no/such/r.csv", "-"], stdin: Data("x,y\n1,1\n".utf8))
        #expect(missingFolder.status == 73)
    }

    /// SIGTERM while the report is being written: the process dies of the signal, and neither the
    /// report nor its temporary file exists. The test waits for the temporary file to be created
    /// (inotify), while the command waits for the rest of its input.
    @Test(arguments: [SIGTERM, SIGINT])
    func interruptedValidateLeavesNothing(signal: Int32) async throws {
        let sandbox = try StoreSandbox()
        let regions = try sandbox.file("regions.geojson", StoreSandbox.regions)
        let out = sandbox.folder.appendingPathComponent("report.jsonl").path
        let watch = inotify_init1(Int32(IN_CLOEXEC))
        try #require(watch >= 0)
        defer { close(watch) }
        try #require(inotify_add_watch(watch, sandbox.folder.path, UInt32(IN_CREATE)) >= 0)

        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["validate", "--regions", regions, "--report", "jsonl", "-o", out, "--input-format", "csv", "-"]
        process.environment = ProcessInfo.processInfo.environment.merging(["CI": "true"]) { $1 }
        let input = ChildProcess.pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ChildProcess.run(process)
        try input.fileHandleForWriting.write(contentsOf: Data("x,y\n50,60\n".utf8))
        // Wait for the temporary file's creation event.
        var created = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !created {
            let count = buffer.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
            try #require(count > 0)
            created = try !temporaryFiles(in: sandbox.folder).isEmpty
        }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try temporaryFiles(in: sandbox.folder).isEmpty)
    }

    /// render into a folder that does not exist: 73, and nothing written.
    @Test func renderToMissingFolder() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        let result = try sandbox.run(["render", "A", "-o", sandbox.folder.path + "/no/such/out.png"])
        #expect(result.status == 73)
        #expect(try temporaryFiles(in: sandbox.folder).isEmpty)
    }

    /// Files left behind by an atomic write (`.NAME.tmp-XXXXXX`).
    func temporaryFiles(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }
    }
}
