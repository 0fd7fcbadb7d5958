import Foundation
import Testing

/// `planmark import`: atomic, reports invalid rows, agrees with `validate` on the sample drawing.
@Suite struct StoreImportTests {
    @Test func oneBadRowInTheMiddleImportsNothing() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        var csv = "id,x,y,note\n"
        for i in 1...2001 { csv += i == 1000 ? "bad,395,50,\n" : "m\(i),\(20 + i % 300),50,n\(i)\n" }
        let path = try sandbox.file("markers.csv", csv)
        let before = try sandbox.snapshot()
        let result = try sandbox.run(["import", "A", path])
        #expect(result.status == 1 && result.stdout == "0\n")
        #expect(result.stderr.contains("markers.csv:1001: marker bad at (395.0, 50.0): outside-allowed-area"))
        #expect(try sandbox.snapshot() == before)
        let skipped = try sandbox.run(["import", "A", path, "--skip-invalid"])
        #expect(skipped.status == 1 && skipped.stdout == "2000\n")
        let markers = try sandbox.markers()
        #expect(markers.count == 2000 && markers.last?["number"] as? Int == 2000)
        #expect(markers[999]["note"] as? String == "n1001")
    }

    @Test func importFromStdinAndGeoJSON() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        let csv = try sandbox.run(["import", "A", "-"], stdin: Data("x,y\n20,20\n30,30\n".utf8))
        #expect(csv.status == 0 && csv.stdout == "2\n", "\(csv.stderr)")
        let geojson = try sandbox.file("m.geojson", """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"p","properties":{"note":"n"},"geometry":{"type":"Point","coordinates":[250,20]}}]}
            """)
        let result = try sandbox.run(["import", "A", geojson])
        #expect(result.status == 0 && result.stdout == "1\n", "\(result.stderr)")
        let markers = try sandbox.markers()
        #expect(markers.map { $0["number"] as? Int } == [1, 2, 3])
        #expect(markers[2]["rooms"] as? [String] == ["R2"] && markers[2]["note"] as? String == "n")
    }

    /// The README demo: the sample drawing, its regions and markers. The expected rooms come from
    /// `Drawings/sample/expected-validate.jsonl` (the validate command's reference report).
    @Test func sampleDrawingAgreesWithValidate() async throws {
        let sandbox = try StoreSandbox()
        let sample = CLIRunner.repositoryRoot.appendingPathComponent("Drawings/sample")
        let add = try sandbox.run(["drawing", "add", sample.appendingPathComponent("plan.png").path, "--name", "Level 2",
                                   "--regions", sample.appendingPathComponent("regions.geojson").path])
        #expect(add.status == 0, "\(add.stderr)")
        let imported = try sandbox.run(["import", "Level 2", sample.appendingPathComponent("markers.csv").path, "--skip-invalid"])
        #expect(imported.status == 1, "\(imported.stderr)")
        let expected = try String(contentsOf: sample.appendingPathComponent("expected-validate.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let valid = expected.filter { $0["valid"] as? Bool == true }
        #expect(imported.stdout == "\(valid.count)\n")
        #expect(imported.stderr.split(separator: "\n").count == expected.count - valid.count + 2)
        let markers = try sandbox.markers("Level 2")
        #expect(markers.count == valid.count)
        for (marker, row) in zip(markers, valid) {
            #expect(marker["x"] as? Double == row["x"] as? Double && marker["y"] as? Double == row["y"] as? Double)
            let rooms = (row["regions"] as! [[String: Any]]).filter { $0["kind"] as? String == "room" }.map { $0["id"] as! String }
            #expect(marker["rooms"] as? [String] == rooms, "\(row["id"] ?? "")")
        }
        // The latLng version of the same file (Leaflet, zoom 2) lands on the same pixels.
        let latlng = try sandbox.run(["import", "Level 2", sample.appendingPathComponent("markers-latlng.csv").path,
                                      "--skip-invalid", "--zoom", "2"])
        #expect(latlng.stdout == "\(valid.count)\n", "\(latlng.stderr)")
        let all = try sandbox.markers("Level 2")
        #expect(all.count == 2 * valid.count)
        for (a, b) in zip(all.prefix(valid.count), all.suffix(valid.count)) {
            #expect(a["x"] as? Double == b["x"] as? Double && a["y"] as? Double == b["y"] as? Double)
        }
    }
}
