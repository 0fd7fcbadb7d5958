import Foundation
import Testing

private let fixtures = CLIRunner.repositoryRoot.appendingPathComponent("Tests/PlanMarkCLITests/Fixtures/labelme")

private func json(_ text: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
}

/// A sandbox with an empty 600 x 400 drawing "A" (the size of the LabelMe fixtures' image).
private func labelMeSandbox() throws -> StoreSandbox {
    let sandbox = try StoreSandbox()
    let added = try sandbox.run(["drawing", "add", try sandbox.png(width: 600, height: 400), "--name", "A"])
    #expect(added.status == 0, "\(added.stderr)")
    return sandbox
}

/// `regions import` / `validate --regions` of LabelMe files and `regions export --format labelme`.
@Suite struct LabelMeCommandTests {
    @Test func importSkipsWhatIsNotARegion() async throws {
        let sandbox = try labelMeSandbox()
        let file = fixtures.appendingPathComponent("rooms.json").path
        let imported = try sandbox.run(["regions", "import", "A", file])
        #expect(imported.status == 0)
        #expect(imported.stdout == "imported 4 regions; 0 markers changed rooms\n")
        #expect(imported.stderr == """
            planmark: \(file): shapes[2]: skipped circle "lamp"
            planmark: \(file): shapes[6]: skipped linestrip "pipe"
            planmark: \(file): shapes[7]: skipped point "1"

            """)
        let features = try json(try sandbox.run(["regions", "export", "A"]).stdout)["features"] as! [[String: Any]]
        #expect(features.map { $0["id"] as? String } == ["Kitchen", "Hall", "Store", "allowed"])
        let properties = features.map { $0["properties"] as! [String: Any] }
        #expect(properties.map { $0["kind"] as? String } == ["room", "room", "room", "allowed"])
        #expect(properties.map { $0["name"] as? String } == ["Kitchen", "Hall", "Store", "allowed"])
        #expect((features[2]["geometry"] as! [String: Any])["type"] as? String == "MultiPolygon")
        // The rectangle's corners (300,50) and (500,200), as a closed ring.
        let hall = (features[1]["geometry"] as! [String: Any])["coordinates"] as! [[[Double]]]
        #expect(hall == [[[300, 50], [500, 50], [500, 200], [300, 200], [300, 50]]])

        // Markers get the rooms and the allowed area of the LabelMe shapes.
        #expect(try sandbox.run(["mark", "A", "150", "100"]).status == 0)
        #expect(try sandbox.markers()[0]["rooms"] as? [String] == ["Kitchen"])
        let outside = try sandbox.run(["mark", "A", "10", "10"])
        #expect(outside.status == 1 && outside.stderr.contains("outside-allowed-area"), "\(outside.stderr)")

        // With a scale, the areas: Kitchen and Hall 200 x 150 px, Store 5,000 + 10,000 px2; at 0.01 m/px.
        #expect(try sandbox.run(["drawing", "calibrate", "A", "--paper-scale", "1:1", "--dpi", "2.54"]).status == 0)
        let measured = try json(try sandbox.run(["regions", "export", "A"]).stdout)["features"] as! [[String: Any]]
        let areas = measured.map { ($0["properties"] as! [String: Any])["area"] as! Double }
        for (area, expected) in zip(areas, [3.0, 3.0, 1.5, 18.0]) { #expect(abs(area - expected) < 1e-9) }
    }

    /// The image must be the drawing's size: refused as bad input data (65) like any fault of a regions
    /// file, and nothing changes.
    @Test func imageSizeMismatch() async throws {
        let sandbox = try labelMeSandbox()
        let file = fixtures.appendingPathComponent("rooms-800.json").path
        let before = try sandbox.snapshot()
        let refused = try sandbox.run(["regions", "import", "A", file])
        #expect(refused.status == 65)
        #expect(refused.stderr.hasSuffix("planmark: \(file): $.imageWidth: the LabelMe image is 800x400 px but the drawing is 600x400 px\n"))
        #expect(try sandbox.snapshot() == before)
        // drawing add checks it against the PNG.
        let add = try sandbox.run(["drawing", "add", try sandbox.png("b.png", width: 600, height: 300), "--name", "B", "--regions",
                                   fixtures.appendingPathComponent("rooms.json").path])
        #expect(add.status == 65 && add.stderr.hasSuffix("$.imageWidth: the LabelMe image is 600x400 px but the drawing is 600x300 px\n"))
        // A malformed LabelMe file is 65 too, with the JSON path.
        let bad = try sandbox.file("bad.json", #"{"shapes":[{"label":"X","points":[[0,0],[1,1],[2,2]],"shape_type":"rectangle"}],"imageWidth":600,"imageHeight":400}"#)
        let malformed = try sandbox.run(["regions", "import", "A", bad])
        #expect(malformed.status == 65 && malformed.stderr == "planmark: \(bad): $.shapes[0].points: a rectangle has two corner points, found 3\n")
    }

    @Test func exportRoundTrip() async throws {
        let sandbox = try labelMeSandbox()
        #expect(try sandbox.run(["regions", "import", "A", fixtures.appendingPathComponent("rooms.json").path]).status == 0)
        #expect(try sandbox.run(["mark", "A", "150", "100"]).stdout == "1\n")
        #expect(try sandbox.run(["mark", "A", "400", "120.5"]).stdout == "2\n")
        let exported = try sandbox.run(["regions", "export", "A", "--format", "labelme", "--markers"])
        #expect(exported.status == 0 && exported.stderr.isEmpty, "\(exported.stderr)")
        let document = try json(exported.stdout)
        #expect(Set(document.keys) == ["version", "flags", "shapes", "imagePath", "imageData", "imageHeight", "imageWidth"])
        #expect(document["imagePath"] as? String == "plan.png" && document["imageData"] is NSNull)
        #expect(document["imageWidth"] as? Int == 600 && document["imageHeight"] as? Int == 400)
        let shapes = document["shapes"] as! [[String: Any]]
        for shape in shapes {
            #expect(Set(shape.keys) == ["label", "points", "group_id", "description", "shape_type", "flags", "mask"])
        }
        #expect(shapes.map { $0["label"] as? String } == ["Kitchen", "Hall", "Store", "Store", "allowed", "1", "2"])
        #expect(shapes.map { $0["shape_type"] as? String } == ["polygon", "polygon", "polygon", "polygon", "polygon", "point", "point"])
        #expect(shapes.map { $0["group_id"] as? Int } == [nil, nil, 1, 1, nil, nil, nil])
        #expect(shapes[6]["points"] as? [[Double]] == [[400, 120.5]])
        // The key order of LabelMe's own writer.
        #expect(exported.stdout.hasPrefix("{\n  \"version\": \"7.1.0\",\n  \"flags\": {},\n  \"shapes\": [\n    {\n      \"label\": \"Kitchen\",\n      \"points\": "))

        // Imported into another drawing, the export gives the same regions back (points are skipped).
        let file = try sandbox.file("exported.json", exported.stdout)
        #expect(try sandbox.run(["drawing", "add", try sandbox.png("b.png", width: 600, height: 400), "--name", "B"]).status == 0)
        let again = try sandbox.run(["regions", "import", "B", file])
        #expect(again.status == 0 && again.stderr.components(separatedBy: "skipped point").count == 3, "\(again.stderr)")
        #expect(try sandbox.run(["regions", "export", "B"]).stdout == (try sandbox.run(["regions", "export", "A"]).stdout))
        // Without --markers there are no points; --markers and --latlng need the right format.
        #expect(!(try sandbox.run(["regions", "export", "A", "--format", "labelme"]).stdout.contains("\"point\"")))
        #expect(try sandbox.run(["regions", "export", "A", "--markers"]).status == 64)
        #expect(try sandbox.run(["regions", "export", "A", "--format", "labelme", "--latlng"]).status == 64)
    }

    /// Holes cannot be written to LabelMe: left out with a warning.
    @Test func holesAreLeftOutWithAWarning() async throws {
        let sandbox = try StoreSandbox()
        let regions = try sandbox.file("holed.geojson", """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"R","geometry":{"type":"Polygon","coordinates":[
            [[10,10],[300,10],[300,200],[10,200],[10,10]],[[50,50],[60,50],[60,60],[50,50]]]}}]}
            """)
        #expect(try sandbox.run(["drawing", "add", try sandbox.png(), "--name", "A", "--regions", regions]).status == 0)
        let exported = try sandbox.run(["regions", "export", "A", "--format", "labelme"])
        #expect(exported.status == 0)
        #expect(exported.stderr == "planmark: warning: region \"R\": 1 hole left out (LabelMe polygons have none)\n")
    }

    /// `validate --regions` reads LabelMe too; without --size its image size is the drawing's.
    @Test func validateWithLabelMe() async throws {
        let sandbox = try StoreSandbox()
        let file = fixtures.appendingPathComponent("rooms.json").path
        let markers = try sandbox.file("markers.csv", "id,x,y\nm1,150,100\nm2,10,10\nm3,700,100\n")
        let result = try CLIRunner.run(["validate", "--regions", file, "--report", "csv", markers], in: sandbox.folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("shapes[2]: skipped circle \"lamp\""))
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix("m1,") && lines[1].contains("Kitchen"))
        #expect(lines[2].hasPrefix("m2,") && lines[2].contains("outside-allowed-area"))
        #expect(lines[3].hasPrefix("m3,") && lines[3].contains("outside-drawing"))
        let mismatch = try CLIRunner.run(["validate", "--regions", file, "--size", "800x400", markers], in: sandbox.folder)
        #expect(mismatch.status == 65 && mismatch.stderr.contains("$.imageWidth: the LabelMe image is 600x400 px but the drawing is 800x400 px"))
    }
}
