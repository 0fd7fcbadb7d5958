import Foundation
import Testing
import PlanMarkTestSupport

/// The names of the `planmark validate` fixture cases: folders with `args` (one a line), optional
/// `stdin`, and the expected `expected-stdout`, `expected-exit` and (optionally) `expected-stderr`,
/// all written by hand from the CLI contract.
let validateCases: [String] = {
    let folder = CLIRunner.repositoryRoot.appendingPathComponent("Tests/PlanMarkCLITests/Fixtures/validate")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent("\($0)/args").path) }.sorted()
}()

/// `planmark validate` end to end through the built binary.
@Suite struct ValidateCommandTests {
    @Test func thereAreCases() async {
        #expect(validateCases.count >= 10)
    }

    @Test(arguments: validateCases)
    func fixture(_ name: String) async throws {
        let folder = CLIRunner.repositoryRoot.appendingPathComponent("Tests/PlanMarkCLITests/Fixtures/validate/\(name)")
        func read(_ file: String) -> String? {
            try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        }
        let args = read("args")!.split(separator: "\n").map(String.init)
        let stdin = read("stdin").map { Data($0.utf8) }
        let result = try CLIRunner.run(["validate"] + args, in: folder, stdin: stdin)
        #expect(result.status == Int32(read("expected-exit")!.trimmingCharacters(in: .whitespacesAndNewlines))!, "\(result.stderr)")
        #expect(result.stdout == read("expected-stdout")!)
        if let stderr = read("expected-stderr") {
            #expect(result.stderr == stderr)
        } else if result.status == 64 {
            #expect(!result.stderr.isEmpty)
        }
    }

    /// The sample drawing's markers, in pixels and as Leaflet latLng at zoom 2, against the outcome
    /// of every marker worked out by hand in `Drawings/README.md`.
    @Test(arguments: [["markers.csv"], ["--zoom", "2", "markers-latlng.csv"]])
    func sampleDrawing(_ input: [String]) async throws {
        let sample = CLIRunner.repositoryRoot.appendingPathComponent("Drawings/sample")
        let expected = try String(contentsOf: sample.appendingPathComponent("expected-validate.jsonl"), encoding: .utf8)
        let result = try CLIRunner.run(["validate", "--regions", "regions.geojson", "--size", "2400x1600", "--report", "jsonl"] + input, in: sample)
        #expect(result.status == 1)
        #expect(result.stdout == expected)
    }

    /// The same markers in one file as CSV and as GeoJSON give the same report.
    @Test func csvAndGeoJSONAgree() async throws {
        let folder = try CLIRunner.temporaryFolder()
        let regions = CLIRunner.repositoryRoot.appendingPathComponent("Tests/PlanMarkCLITests/Fixtures/validate/regions.geojson").path
        var csv = "id,x,y\n"
        var features: [String] = []
        var generator = SeededGenerator()
        for k in 0..<2000 {
            let x = Double(Int.random(in: -20...420, using: &generator)) / 2
            let y = Double(Int.random(in: -20...260, using: &generator)) / 2
            csv += "m\(k),\(x),\(y)\n"
            features.append(#"{"type":"Feature","id":"m\#(k)","geometry":{"type":"Point","coordinates":[\#(x),\#(y)]}}"#)
        }
        try csv.write(to: folder.appendingPathComponent("m.csv"), atomically: true, encoding: .utf8)
        try (#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}")
            .write(to: folder.appendingPathComponent("m.geojson"), atomically: true, encoding: .utf8)
        let a = try CLIRunner.run(["validate", "--regions", regions, "--size", "200x120", "--report", "jsonl", "m.csv"], in: folder)
        let b = try CLIRunner.run(["validate", "--regions", regions, "--size", "200x120", "--report", "jsonl", "m.geojson"], in: folder)
        #expect(a.status == 1, "seed \(generator.seed): \(a.stderr)")
        #expect(a.stdout == b.stdout, "seed \(generator.seed)")
        #expect(a.stdout.split(separator: "\n").count == 2000, "seed \(generator.seed)")
    }
}

/// `planmark crs` end to end: Leaflet's CRSSpec vectors for CRS.Simple, stdin pairs, errors.
@Suite struct CRSCommandTests {
    @Test(arguments: [
        // Leaflet spec/suites/geo/CRSSpec.js, CRS.Simple #latLngToPoint and #pointToLatLng.
        (["to-pixel", "--zoom", "0", "0", "0"], "0.0 0.0\n"),
        (["to-pixel", "--zoom", "0", "700", "300"], "300.0 -700.0\n"),
        (["to-pixel", "--zoom", "1", "-200", "1000"], "2000.0 400.0\n"),
        (["to-latlng", "--zoom", "0", "300", "-700"], "700.0 300.0\n"),
        (["to-latlng", "--zoom", "1", "2000", "400"], "-200.0 1000.0\n"),
        // y = 0 gives lat = (0 / s - 0) / -1 = -0.0 in Leaflet's operation order.
        (["to-latlng", "--zoom", "0", "0", "0"], "-0.0 0.0\n"),
        // Negative zoom: scale 1/4.
        (["to-pixel", "--zoom", "-2", "-0.5", "3"], "0.75 0.125\n"),
        // flutter_map: scale 256 * 2^z; zoom -8 is scale 1.
        (["to-pixel", "--zoom", "-8", "--crs", "flutter", "-12.5", "40"], "40.0 12.5\n"),
        (["to-latlng", "--zoom", "0", "--crs", "flutter", "512", "256"], "-1.0 2.0\n"),
        // flutter_map clamps: lng 100000 / 256 = 390.625 -> 180.
        (["to-latlng", "--zoom", "0", "--crs", "flutter", "100000", "5"], "-0.01953125 180.0\n"),
    ])
    func conversions(_ args: [String], _ expected: String) throws {
        let result = try CLIRunner.run(["crs"] + args)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == expected)
    }

    @Test func stdinPairs() async throws {
        let result = try CLIRunner.run(["crs", "to-latlng", "--zoom", "2"], stdin: Data("8, -4\n\n  12\t16 \n".utf8))
        #expect(result.status == 0)
        #expect(result.stdout == "1.0 2.0\n-4.0 3.0\n")
    }

    @Test func badStdinLine() async throws {
        let result = try CLIRunner.run(["crs", "to-pixel", "--zoom", "0"], stdin: Data("1 2\n3 x\n5 6\n".utf8))
        #expect(result.status == 65)
        #expect(result.stdout == "2.0 -1.0\n")
        #expect(result.stderr.hasPrefix("planmark: -:2: "))
    }

    @Test func usageErrors() async throws {
        #expect(try CLIRunner.run(["crs", "to-pixel", "--zoom", "0", "1"]).status == 64)
        #expect(try CLIRunner.run(["crs", "to-pixel", "1", "2"]).status == 64)
        #expect(try CLIRunner.run(["crs", "to-pixel", "--zoom", "0", "--crs", "google", "1", "2"]).status == 64)
    }

    @Test func boundsWarnWhenFlutterClamps() async throws {
        let fits = try CLIRunner.run(["crs", "bounds", "--size", "2400x1600", "--zoom", "2", "--format", "json"])
        #expect(fits.stdout == #"{"southWest":[-400,0],"northEast":[0,600]}"# + "\n")
        #expect(fits.stderr.isEmpty)
        // 20000x15000 at flutter zoom 0 (scale 256) is 78.125 x 58.59375 latLng units: it fits.
        let fitsFlutter = try CLIRunner.run(["crs", "bounds", "--size", "20000x15000", "--zoom", "0", "--crs", "flutter"])
        #expect(fitsFlutter.stderr.isEmpty)
        #expect(fitsFlutter.stdout == "southWest -58.59375 0.0\nnorthEast -0.0 78.125\n")
        // At zoom -2 (scale 64) it would need lat -234.375 and lng 312.5: clamped, with a warning.
        let clamped = try CLIRunner.run(["crs", "bounds", "--size", "20000x15000", "--zoom", "-2", "--crs", "flutter"])
        #expect(clamped.status == 0)
        #expect(clamped.stderr.contains("warning"))
        #expect(clamped.stdout == "southWest -90.0 0.0\nnorthEast -0.0 180.0\n")
    }
}
