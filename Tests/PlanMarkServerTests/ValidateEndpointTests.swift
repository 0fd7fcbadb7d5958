import Foundation
import PlanMarkTestSupport
import Hummingbird
import Testing
@testable import PlanMarkServer

/// `POST /validate` gives the report of `planmark validate --report json` for the same input.
@Suite struct ValidateEndpointTests {
    /// The sample markers as a GeoJSON FeatureCollection (ids from the CSV's id column).
    static func sampleMarkersGeoJSON() throws -> String {
        let csv = try String(contentsOfFile: ServerFixture.repositoryRoot.appendingPathComponent("Drawings/sample/markers.csv").path, encoding: .utf8)
        var features: [String] = []
        for line in csv.split(separator: "\n").dropFirst() where !line.isEmpty {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let x = Double(fields[1]).map { "\($0)" } ?? "null"
            let y = Double(fields[2]).map { "\($0)" } ?? "null"
            features.append("{\"type\":\"Feature\",\"id\":\"\(fields[0])\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(x),\(y)]}}")
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
    }

    @Test func sameReportAsTheCLI() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let markers = try Self.sampleMarkersGeoJSON()
        let markersFile = fixture.folder.appendingPathComponent("markers.geojson")
        try markers.write(to: markersFile, atomically: true, encoding: .utf8)
        let cli = try ProcessRunner.run(BuiltProducts.path("planmark"), [
            "validate", "--regions", ServerFixture.sampleRegions, "--size", "2400x1600", "--report", "json", markersFile.path])
        #expect(cli.status == 1 || cli.status == 0)
        let regions = try String(contentsOfFile: ServerFixture.sampleRegions, encoding: .utf8)
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/validate", json: "{\"regions\":\(regions),\"size\":[2400,1600],\"markers\":\(markers)}")
            #expect(response.status == .ok)
            #expect(response.text == cli.stdout)
            #expect(!response.text.isEmpty)
        }
    }

    /// Numeric ids keep their exact text in the answer, as in `planmark validate` (`1.50` is not `1.5`,
    /// `2e0` is not `2`): a feature's `id` and `properties.id`; a feature without one gets its position.
    @Test func numericIDsKeepTheirText() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let regions = try String(contentsOfFile: ServerFixture.sampleRegions, encoding: .utf8)
        func feature(_ id: String) -> String {
            "{\"type\":\"Feature\",\(id)\"geometry\":{\"type\":\"Point\",\"coordinates\":[450,400]},\"properties\":{}}"
        }
        let features = [feature("\"id\":1.50,"), feature("\"id\":2e0,"), feature(""),
                        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[450,400]},\"properties\":{\"id\":-0.0}}"]
        let markers = "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}"
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/validate", json: "{\"regions\":\(regions),\"size\":[2400,1600],\"markers\":\(markers)}")
            #expect(response.status == .ok)
            let rows = response.object["markers"] as? [[String: Any]] ?? []
            #expect(rows.map { $0["id"] as? String } == ["1.50", "2e0", "3", "-0.0"])
            #expect(response.text.contains("\"id\":\"1.50\""))
        }
    }

    /// By hand: (450, 400) is in 2.01 and A1; (2000, 100) is off A1; (3000, 10) is off the drawing.
    @Test func pairsArrayWithHandDerivedVerdicts() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let regions = try String(contentsOfFile: ServerFixture.sampleRegions, encoding: .utf8)
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/validate", json: "{\"regions\":\(regions),\"size\":[2400,1600],\"markers\":[[450,400],[2000,100],[3000,10],[\"a\",1]]}")
            #expect(response.status == .ok)
            let markers = response.object["markers"] as? [[String: Any]] ?? []
            #expect(markers.map { $0["id"] as? String } == ["1", "2", "3", "4"])
            #expect(markers.map { $0["valid"] as? Bool } == [true, false, false, false])
            #expect(markers.map { $0["reason"] as? String } == [nil, "outside-allowed-area", "outside-drawing", "invalid-coordinate"])
            let regionIDs = (markers.first?["regions"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(regionIDs == ["2.01", "A1"])
            let summary = response.object["summary"] as? [String: Any]
            #expect(summary?["total"] as? Int == 4)
            #expect(summary?["invalid"] as? Int == 3)
        }
    }

    @Test(arguments: [
        (#"{"size":[10,10],"markers":[]}"#, "$.regions"),
        (#"{"regions":{"type":"FeatureCollection","features":[]},"size":[10],"markers":[]}"#, "$.size"),
        (#"{"regions":{"type":"FeatureCollection","features":[]},"size":[10,10]}"#, "$.markers"),
        (#"{"regions":{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"kind":"hall"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}]},"markers":[]}"#, "$.regions.features[0].properties.kind"),
        (#"{"regions":{"type":"FeatureCollection","features":[]},"markers":{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[]}}]}}"#, "$.markers.features[0].geometry"),
        (#"{"regions":{"type":"FeatureCollection","features":[]},"markers":[],"extra":1}"#, "$.extra"),
    ])
    func badRequestsName400Fields(body: String, field: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/validate", json: body)
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.hasPrefix(field + ":") == true, "message: \(response.errorMessage ?? "nil")")
        }
    }
}

/// Runs an executable and captures its output.
enum ProcessRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = ChildProcess.pipe(), err = ChildProcess.pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try ChildProcess.run(process)
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readBytesToEnd(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readBytesToEnd(); group.leave() }
        process.waitUntilExit()
        group.wait()
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }
}
