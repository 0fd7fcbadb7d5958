import Foundation
import Testing

/// The store commands end to end through the built binary: outputs, exit codes, one-line errors.
@Suite struct StoreCommandTests {
    @Test func markPrintsTheNumberAlone() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        let first = try sandbox.run(["mark", "A", "50", "60", "--note", "crack", "--author", "ana"])
        #expect(first.status == 0 && first.stdout == "1\n" && first.stderr.isEmpty)
        #expect(try sandbox.run(["mark", "A", "200", "100"]).stdout == "2\n")
        let markers = try sandbox.markers()
        #expect(markers.count == 2)
        #expect(markers[0]["number"] as? Int == 1 && markers[0]["x"] as? Double == 50 && markers[0]["y"] as? Double == 60)
        #expect(markers[0]["status"] as? String == "open" && markers[0]["note"] as? String == "crack")
        #expect(markers[0]["rooms"] as? [String] == ["R1"] && markers[0]["author"] as? String == "ana")
        // On the shared wall x = 200: both rooms.
        #expect(markers[1]["rooms"] as? [String] == ["R1", "R2"])
        #expect(markers[1]["note"] is NSNull)
    }

    /// `--store` before the command's name, after it, `$PLANMARK_STORE`, and the default file.
    @Test func storeOptionAnywhere() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        let before = try CLIRunner.run(["--store", sandbox.store, "mark", "A", "50", "60"], in: sandbox.folder)
        #expect(before.status == 0 && before.stdout == "1\n", "\(before.stderr)")
        let equals = try CLIRunner.run(["--store=\(sandbox.store)", "drawing", "show", "A", "--format", "json"], in: sandbox.folder)
        #expect(equals.status == 0 && equals.stdout.contains("\"markers\":1"), "\(equals.stderr)")
        let env = try CLIRunner.run(["mark", "A", "60", "60"], in: sandbox.folder, environment: ["PLANMARK_STORE": sandbox.store])
        #expect(env.stdout == "2\n", "\(env.stderr)")
        // No option, no variable: planmark.sqlite in the current folder, which only `drawing add` creates.
        let missing = try CLIRunner.run(["drawing", "list"], in: sandbox.folder, environment: ["PLANMARK_STORE": ""])
        #expect(missing.status == 66 && missing.stderr.contains("planmark.sqlite"))
        let added = try CLIRunner.run(["drawing", "add", try sandbox.png("b.png"), "--name", "B"], in: sandbox.folder, environment: ["PLANMARK_STORE": ""])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("planmark.sqlite").path))
    }

    /// Leaflet CRS.Simple at the drawing's zoom 8 has scale 256: pixel (128, 64) is latLng (-0.25, 0.5).
    /// At client zoom 7 (scale 128), latLng (-0.25, 0.5) is pixel (64, 32).
    @Test func latLngInAndOut() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        #expect(try sandbox.run(["mark", "A", "--lat", "-0.25", "--lng", "0.5"]).stdout == "1\n")
        #expect(try sandbox.run(["mark", "A", "--lat", "-0.25", "--lng", "0.5", "--zoom", "7"]).stdout == "2\n")
        let markers = try sandbox.markers("A", ["--latlng"])
        #expect(markers[0]["x"] as? Double == 128 && markers[0]["y"] as? Double == 64)
        #expect(markers[1]["x"] as? Double == 64 && markers[1]["y"] as? Double == 32)
        #expect(markers[0]["lat"] as? Double == -0.25 && markers[0]["lng"] as? Double == 0.5)
        let zoom9 = try sandbox.markers("A", ["--latlng", "--zoom", "9"])
        #expect(zoom9[0]["lat"] as? Double == -0.125 && zoom9[0]["lng"] as? Double == 0.25)
        let geojson = try sandbox.run(["markers", "A", "--format", "geojson", "--latlng"]).stdout
        #expect(geojson.hasPrefix("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"id\":1,\"geometry\":{\"type\":\"Point\",\"coordinates\":[0.5,-0.25]}"))
    }

    @Test func refusedMarkStoresNothing() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        let before = try sandbox.snapshot()
        let outside = try sandbox.run(["mark", "A", "5", "5"])
        #expect(outside.status == 1 && outside.stdout.isEmpty)
        #expect(outside.stderr == "planmark: marker at (5.0, 5.0): refused: outside-allowed-area\n")
        let off = try sandbox.run(["mark", "A", "401", "5"])
        #expect(off.status == 1 && off.stderr.contains("outside-drawing"))
        #expect(try sandbox.snapshot() == before)
        // The next accepted marker is still number 1.
        #expect(try sandbox.run(["mark", "A", "50", "50"]).stdout == "1\n")
    }

    /// Each bad input: one line on stderr, the right exit code, the store unchanged.
    @Test(arguments: [
        (["mark", "B", "50", "50"], Int32(66), "planmark: drawing \"B\": no such drawing"),
        (["drawing", "add", "plan.png", "--name", "A"], 1, "planmark: drawing \"A\": a drawing with this name already exists"),
        (["drawing", "add", "regions.geojson", "--name", "B"], 65, "planmark: regions.geojson: not a PNG file"),
        (["drawing", "add", "nothing.png", "--name", "B"], 66, "planmark: nothing.png: no such file"),
        (["import", "A", "wrong.csv"], 65, "planmark: wrong.csv:1: "),
        (["import", "A", "regions.geojson"], 65, "planmark: regions.geojson: $.features[0].geometry: "),
        (["import", "A", "nothing.csv"], 66, "planmark: nothing.csv: no such file"),
        (["move", "A", "7", "50", "50"], 66, "planmark: drawing \"A\": no marker 7"),
        (["resolve", "A", "7"], 66, "planmark: drawing \"A\": no marker 7"),
        (["remove", "A", "0"], 66, "planmark: drawing \"A\": no marker 0"),
        (["history", "A", "7"], 66, "planmark: drawing \"A\": no marker 7"),
        (["resolve", "A", "1", "--no-such-option"], 64, ""),
        (["regions", "import", "A", "wrong.csv"], 65, "planmark: wrong.csv:1: "),
    ])
    func badInput(arguments: [String], status: Int32, message: String) throws {
        let sandbox = try StoreSandbox.withDrawing()
        _ = try sandbox.file("wrong.csv", "a,b\n1,2\n")
        #expect(try sandbox.run(["mark", "A", "50", "50"]).status == 0)
        let before = try sandbox.snapshot()
        let result = try sandbox.run(arguments)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        if status != 64 {
            #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        #expect(try sandbox.snapshot() == before)
    }

    @Test func commandsOnAMissingStoreExit66() async throws {
        let sandbox = try StoreSandbox()
        for arguments in [["mark", "A", "1", "1"], ["markers", "A"], ["drawing", "list"], ["import", "A", "x.csv"], ["history", "A"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 66, "\(arguments)")
            #expect(result.stderr == "planmark: \(sandbox.store): no such store (create one with 'planmark drawing add')\n")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.store))
    }

    @Test func moveResolveReopenRemoveHistory() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        _ = try sandbox.run(["mark", "A", "50", "60", "--author", "ana"])
        #expect(try sandbox.run(["move", "A", "1", "300", "100", "--author", "bo"]).status == 0)
        #expect(try sandbox.run(["resolve", "A", "1", "--author", "cy"]).status == 0)
        #expect(try sandbox.run(["markers", "A", "--status", "open", "--format", "jsonl"]).stdout.isEmpty)
        let again = try sandbox.run(["resolve", "A", "1"])
        #expect(again.status == 1 && again.stderr == "planmark: drawing \"A\": marker 1 is already closed\n")
        #expect(try sandbox.run(["reopen", "A", "1", "--author", "cy"]).status == 0)
        #expect(try sandbox.run(["remove", "A", "1", "--author", "ed"]).status == 0)
        #expect(try sandbox.run(["mark", "A", "50", "60"]).stdout == "2\n")
        let lines = try sandbox.run(["history", "A", "1", "--format", "jsonl"]).stdout.split(separator: "\n")
        let entries = lines.map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(entries.map { $0["action"] as? String } == ["created", "moved", "resolved", "reopened", "removed"])
        #expect(entries.map { $0["author"] as? String } == ["ana", "bo", "cy", "cy", "ed"])
        #expect((entries[1]["old"] as? [String: Any])?["x"] as? Double == 50)
        #expect((entries[1]["new"] as? [String: Any])?["x"] as? Double == 300)
        #expect((entries[1]["new"] as? [String: Any])?["rooms"] as? [String] == ["R2"])
        #expect((entries[4]["old"] as? [String: Any])?["status"] as? String == "open")
        #expect(entries[4]["new"] is NSNull)
    }

    @Test func singleMarkerDrawing() async throws {
        let sandbox = try StoreSandbox.withDrawing(["--single-marker"])
        #expect(try sandbox.run(["mark", "A", "50", "60"]).stdout == "1\n")
        #expect(try sandbox.run(["mark", "A", "70", "60"]).stdout == "2\n")
        #expect(try sandbox.markers().map { $0["number"] as? Int } == [2])
        let history = try sandbox.run(["history", "A", "--format", "jsonl"]).stdout
        #expect(history.contains("\"number\":1,\"action\":\"removed\"") && history.contains("\"replacedBy\":2"))
    }

    @Test func regionsImportRefusedUnlessForced() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        _ = try sandbox.run(["mark", "A", "50", "60"])
        _ = try sandbox.run(["mark", "A", "300", "60"])
        let smaller = try sandbox.file("smaller.geojson", """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"S","properties":{"kind":"allowed"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[100,0],[100,100],[0,100],[0,0]]]}}]}
            """)
        let before = try sandbox.snapshot()
        let refused = try sandbox.run(["regions", "import", "A", smaller])
        #expect(refused.status == 1 && refused.stderr.contains("would be outside the new allowed area (2)"))
        #expect(try sandbox.snapshot() == before)
        let forced = try sandbox.run(["regions", "import", "A", smaller, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try sandbox.markers().map { $0["rooms"] as? [String] } == [[], []])
        // A new marker is now checked against the new area.
        #expect(try sandbox.run(["mark", "A", "300", "60"]).status == 1)
        #expect(try sandbox.run(["regions", "export", "A"]).stdout.contains("\"id\":\"S\""))
    }

    @Test func drawingShowJSON() async throws {
        let sandbox = try StoreSandbox.withDrawing(["--zoom", "2", "--crs", "flutter"])
        _ = try sandbox.run(["mark", "A", "50", "60"])
        let output = try sandbox.run(["drawing", "show", "A", "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: output.stdoutData) as! [String: Any]
        #expect(object["name"] as? String == "A" && object["width"] as? Int == 400 && object["height"] as? Int == 300)
        #expect(object["zoom"] as? Double == 2 && object["crs"] as? String == "flutter" && object["markers"] as? Int == 1)
        #expect((object["image"] as? String)?.hasSuffix("/plan.png") == true)
        // flutter_map CrsSimple at zoom 2: scale 256 * 4 = 1024; south-west = pixel (0, 300), north-east = (400, 0).
        let bounds = object["bounds"] as? [String: [Double]]
        #expect(bounds?["southWest"] == [-300.0 / 1024, 0] && bounds?["northEast"] == [0, 400.0 / 1024])
        let list = try sandbox.run(["drawing", "list", "--format", "json"])
        // The list is the service's shape, {"drawings":[...]}.
        #expect(((try JSONSerialization.jsonObject(with: list.stdoutData) as? [String: Any])?["drawings"] as? [[String: Any]])?.count == 1)
    }
}
