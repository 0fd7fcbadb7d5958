import Foundation
import PlanMarkRender
import Testing

/// A temporary folder with a store path, for running store commands through the built binary.
struct StoreSandbox {
    let folder: URL
    var store: String { folder.appendingPathComponent("store.sqlite").path }

    init() throws {
        folder = try CLIRunner.temporaryFolder()
    }

    /// Runs `planmark` with `arguments` followed by `--store STORE`, in the sandbox folder.
    @discardableResult
    func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> CLIRunner.Output {
        try CLIRunner.run(arguments + ["--store", store], in: folder, stdin: stdin, environment: environment)
    }

    /// Writes `text` to a file in the sandbox and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Writes a white PNG of `width` x `height` (a whole, decodable image: `drawing add` decodes it).
    func png(_ name: String = "plan.png", width: Int = 400, height: Int = 300) throws -> String {
        let image = RGBAImage(width: width, height: height, pixels: [UInt8](repeating: 255, count: width * height * 4))
        let url = folder.appendingPathComponent(name)
        try Data(try PNGEncoder().encode(image)).write(to: url)
        return url.path
    }

    /// On a 400 x 300 drawing: allowed area 10...390 x 10...290, rooms R1 (x 10...200) and R2 (x 200...390).
    static let regions = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"A","properties":{"kind":"allowed"},"geometry":{"type":"Polygon","coordinates":[[[10,10],[390,10],[390,290],[10,290],[10,10]]]}},
        {"type":"Feature","id":"R1","properties":{"name":"Room 1"},"geometry":{"type":"Polygon","coordinates":[[[10,10],[200,10],[200,290],[10,290],[10,10]]]}},
        {"type":"Feature","id":"R2","geometry":{"type":"Polygon","coordinates":[[[200,10],[390,10],[390,290],[200,290],[200,10]]]}}]}
        """

    /// A sandbox whose store has drawing "A" (400 x 300 px, the regions above, zoom 8, Leaflet).
    static func withDrawing(_ extra: [String] = []) throws -> StoreSandbox {
        let sandbox = try StoreSandbox()
        let result = try sandbox.run(["drawing", "add", try sandbox.png(), "--name", "A", "--regions", try sandbox.file("regions.geojson", regions)] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return sandbox
    }

    /// Everything a store holds, as the CLI prints it: to check that a failed command changed nothing.
    func snapshot() throws -> String {
        var text = try run(["drawing", "list", "--format", "json"]).stdout
        for name in ["A", "B"] {
            text += try run(["markers", name, "--format", "jsonl"]).stdout
            text += try run(["history", name, "--format", "jsonl"]).stdout
            text += try run(["regions", "export", name]).stdout
        }
        return text
    }

    /// The markers of `drawing` as parsed JSON Lines objects.
    func markers(_ drawing: String = "A", _ extra: [String] = []) throws -> [[String: Any]] {
        let output = try run(["markers", drawing, "--format", "jsonl"] + extra)
        #expect(output.status == 0, "\(output.stderr)")
        return output.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }
}
