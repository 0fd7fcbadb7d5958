import Foundation
import Testing

/// An 800 x 400 drawing "A" with a 4 x 3 m room at 100 px per metre (400 x 300 px from 100,50) that has a
/// 1 x 1 m column (a 100 x 100 px hole), and an L-shaped room: a 100 x 300 px leg and a 100 x 100 px foot
/// (40,000 px2; edges 100 + 200 + 100 + 100 + 200 + 300 = 1,000 px).
private let measuredRegions = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","id":"R","properties":{"name":"Office"},"geometry":{"type":"Polygon","coordinates":[
      [[100,50],[500,50],[500,350],[100,350],[100,50]],[[200,100],[300,100],[300,200],[200,200],[200,100]]]}},
    {"type":"Feature","id":"L","geometry":{"type":"Polygon","coordinates":[
      [[500,50],[600,50],[600,250],[700,250],[700,350],[500,350],[500,50]]]}}]}
    """

private func measuredSandbox() throws -> StoreSandbox {
    let sandbox = try StoreSandbox()
    let added = try sandbox.run(["drawing", "add", try sandbox.png(width: 800, height: 400), "--name", "A",
                                 "--regions", try sandbox.file("regions.geojson", measuredRegions)])
    #expect(added.status == 0, "\(added.stderr)")
    return sandbox
}

private func json(_ text: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
}

private func features(_ output: CLIRunner.Output) throws -> [[String: Any]] {
    #expect(output.status == 0, "\(output.stderr)")
    return try json(output.stdout)["features"] as! [[String: Any]]
}

/// `drawing calibrate`, `drawing show`, `measure` and the regions' area and perimeter, end to end.
@Suite struct CalibrationCommandTests {
    @Test func twoPointCalibration() async throws {
        let sandbox = try measuredSandbox()
        // No scale yet: the keys are absent, not 0.
        let before = try sandbox.run(["drawing", "show", "A", "--format", "json"])
        #expect(!before.stdout.contains("metresPerPixel") && !before.stdout.contains("calibration"))
        #expect(try sandbox.run(["drawing", "show", "A"]).stdout.contains("scale: none (not calibrated)\n"))
        for feature in try features(try sandbox.run(["regions", "export", "A"])) {
            let properties = feature["properties"] as! [String: Any]
            #expect(properties["area"] == nil && properties["perimeter"] == nil)
        }

        // The room's top wall, 400 px, is 4 m.
        let calibrated = try sandbox.run(["drawing", "calibrate", "A", "--from", "100,50", "--to", "500,50", "--distance", "4"])
        #expect(calibrated.status == 0, "\(calibrated.stderr)")
        #expect(calibrated.stdout == "calibrated drawing \"A\": 0.01 m per pixel (2 points (100, 50)-(500, 50) = 4 m)\n")
        let shown = try json(try sandbox.run(["drawing", "show", "A", "--format", "json"]).stdout)
        #expect(shown["metresPerPixel"] as? Double == 0.01)
        let calibration = shown["calibration"] as! [String: Any]
        #expect(calibration["method"] as? String == "two-points")
        #expect(calibration["from"] as? [Double] == [100, 50] && calibration["to"] as? [Double] == [500, 50])
        #expect(calibration["distance"] as? Double == 4 && calibration["unit"] as? String == "m")
        #expect(try sandbox.run(["drawing", "show", "A"]).stdout.contains("scale: 0.01 m per pixel (2 points (100, 50)-(500, 50) = 4 m)\n"))

        // 4 x 3 m minus 1 x 1 m = 11 m2; perimeter 14 + 4 = 18 m. The L: 4 m2, 10 m.
        let regions = try features(try sandbox.run(["regions", "export", "A"]))
        let office = regions[0]["properties"] as! [String: Any]
        #expect(office["area"] as? Double == 11 && office["perimeter"] as? Double == 18)
        #expect(abs((office["areaExact"] as! Double) - 11) < 1e-9)
        #expect(abs((office["perimeterExact"] as! Double) - 18) < 1e-9)
        let l = regions[1]["properties"] as! [String: Any]
        #expect(abs((l["area"] as! Double) - 4) < 1e-9)
        #expect(abs((l["perimeter"] as! Double) - 10) < 1e-9)
        // The same properties with positions as [lng, lat].
        let latLng = try features(try sandbox.run(["regions", "export", "A", "--latlng"]))
        #expect(abs(((latLng[0]["properties"] as! [String: Any])["area"] as! Double) - 11) < 1e-9)

        // measure: 300, 400 px apart is 500 px = 5 m, to the millimetre and 0.1 px.
        let measured = try sandbox.run(["measure", "A", "100,50", "400,450"])
        #expect(measured.status == 0 && measured.stdout == "5.000 m (500.0 px)\n", "\(measured.stderr)")
        let measuredJSON = try json(try sandbox.run(["measure", "A", "100,50", "400,450", "--format", "json"]).stdout)
        #expect(measuredJSON["pixels"] as? Double == 500 && measuredJSON["pixelsExact"] as? Double == 500)
        #expect(measuredJSON["metres"] as? Double == 5)
        #expect(abs((measuredJSON["metresExact"] as! Double) - 5) < 1e-12)
        #expect(measuredJSON["from"] as? [Double] == [100, 50] && measuredJSON["drawing"] as? String == "A")
    }

    /// The same 400 px as 4,000 mm or as 13.123... ft, and the paper scale 1:100 at 300 dpi.
    @Test func unitsAndPaperScale() async throws {
        let sandbox = try measuredSandbox()
        func scale() throws -> Double { try json(try sandbox.run(["drawing", "show", "A", "--format", "json"]).stdout)["metresPerPixel"] as! Double }
        #expect(try sandbox.run(["drawing", "calibrate", "A", "--from", "100,50", "--to", "500,50", "--distance", "4000", "--unit", "mm"]).status == 0)
        #expect(abs(try scale() - 0.01) < 1e-15)
        // 10 ft = 3.048 m over a 3-4-5 diagonal of 300 px: 0.01016 m per pixel.
        #expect(try sandbox.run(["drawing", "calibrate", "A", "--from", "0,0", "--to", "180,240", "--distance", "10", "--unit", "ft"]).status == 0)
        #expect(abs(try scale() - 0.01016) < 1e-15)
        // 1:100 at 300 dpi: 0.0254 m / 300 of paper, 100 times that = 0.0084666... m.
        let paper = try sandbox.run(["drawing", "calibrate", "A", "--paper-scale", "1:100", "--dpi", "300"])
        #expect(paper.status == 0, "\(paper.stderr)")
        // Shown to 4 significant digits; kept in full in the JSON.
        #expect(paper.stdout == "calibrated drawing \"A\": 0.008467 m per pixel (paper scale 1:100 at 300 dpi)\n")
        #expect(abs(try scale() - 0.00846666666666667) < 1e-15)
        let calibration = try json(try sandbox.run(["drawing", "show", "A", "--format", "json"]).stdout)["calibration"] as! [String: Any]
        #expect(calibration["method"] as? String == "paper-scale" && calibration["scale"] as? String == "1:100" && calibration["dpi"] as? Double == 300)
    }

    /// The numbers of issue 28: 1:100 at 254 dpi is 0.01 m per pixel (a 254 dpi pixel is 0.1 mm of paper), not
    /// the doubles' 0.009999999999999998; the distance from 0,0 to 300,900 is sqrt(900,000) = 948.6832980505138 px,
    /// printed to 0.1 px, and 9.486832980505138 m, printed to the millimetre.
    @Test func paperScaleAndMeasureForPeople() async throws {
        let sandbox = try measuredSandbox()
        let paper = try sandbox.run(["drawing", "calibrate", "A", "--paper-scale", "1:100", "--dpi", "254"])
        #expect(paper.status == 0, "\(paper.stderr)")
        #expect(paper.stdout == "calibrated drawing \"A\": 0.01 m per pixel (paper scale 1:100 at 254 dpi)\n")
        #expect(try sandbox.run(["drawing", "show", "A"]).stdout.contains("scale: 0.01 m per pixel (paper scale 1:100 at 254 dpi)\n"))
        #expect(try json(try sandbox.run(["drawing", "show", "A", "--format", "json"]).stdout)["metresPerPixel"] as? Double == 0.01)

        let measured = try sandbox.run(["measure", "A", "0,0", "300,900"])
        #expect(measured.status == 0 && measured.stdout == "9.487 m (948.7 px)\n", "\(measured.stderr)")
        let text = try sandbox.run(["measure", "A", "0,0", "300,900", "--format", "json"]).stdout
        #expect(text.contains("\"pixels\":948.7,\"metres\":9.487,\"pixelsExact\":948.6832980505138,\"metresExact\":9.486832980505138}"), "\(text)")
        // 0.5 px is 5 mm; 0.25 px is 2.5 mm (0.0025 m: the half rounds up, to 0.003) and 0.3 px.
        #expect(try sandbox.run(["measure", "A", "10,5", "10.5,5"]).stdout == "0.005 m (0.5 px)\n")
        #expect(try sandbox.run(["measure", "A", "10,5", "10.25,5"]).stdout == "0.003 m (0.3 px)\n")

        // The office (11 m2, 18 m) and the L (4 m2, 10 m): the rounded numbers and the exact ones.
        let export = try sandbox.run(["regions", "export", "A"])
        #expect(export.stdout.contains("\"name\":\"Office\",\"area\":11,\"perimeter\":18,\"areaExact\":11,\"perimeterExact\":18}"), "\(export.stdout)")
        #expect(export.stdout.contains("\"area\":4,\"perimeter\":10,\"areaExact\":4,\"perimeterExact\":10}"), "\(export.stdout)")
    }

    /// Rooms of 555 x 500 px (277,500 px2) and 450 x 250 px (112,500 px2) at 1:100 and 254 dpi are 27.75 m2 and
    /// 11.25 m2: so say the regions export and the report (the doubles' old scale made them 27.749999999999993 and
    /// 11.249999999999996, reported as 27.7 and 11.2).
    @Test func roomAreasInTheExportAndTheReport() async throws {
        let sandbox = try StoreSandbox()
        let rooms = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"K","properties":{"name":"Kitchen"},"geometry":{"type":"Polygon","coordinates":[
              [[0,0],[555,0],[555,500],[0,500],[0,0]]]}},
            {"type":"Feature","id":"H","properties":{"name":"Hall"},"geometry":{"type":"Polygon","coordinates":[
              [[600,0],[1050,0],[1050,250],[600,250],[600,0]]]}}]}
            """
        let added = try sandbox.run(["drawing", "add", try sandbox.png(width: 1100, height: 600), "--name", "B",
                                     "--regions", try sandbox.file("rooms.geojson", rooms)])
        try #require(added.status == 0, "\(added.stderr)")
        try #require(try sandbox.run(["drawing", "calibrate", "B", "--paper-scale", "1:100", "--dpi", "254"]).status == 0)
        let export = try sandbox.run(["regions", "export", "B"]).stdout
        // 2 x (555 + 500) px = 21.1 m; 2 x (450 + 250) px = 14 m.
        #expect(export.contains("\"name\":\"Kitchen\",\"area\":27.75,\"perimeter\":21.1,"), "\(export)")
        #expect(export.contains("\"name\":\"Hall\",\"area\":11.25,\"perimeter\":14,"), "\(export)")
        let folder = sandbox.folder.appendingPathComponent("site")
        let report = try sandbox.run(["report", "B", "--format", "html", "-o", folder.path])
        try #require(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        // Each room by id and name, as the review image's legend.
        #expect(html.contains("<dt>Room areas</dt><dd>K Kitchen 27.75 m², H Hall 11.25 m²</dd>"), "\(html)")
    }

    @Test(arguments: [
        [String](),
        ["--from", "0,0", "--to", "10,0", "--distance", "1", "--paper-scale", "1:100", "--dpi", "300"],
        ["--from", "0,0", "--to", "10,0"],
        ["--paper-scale", "1:100"],
        ["--dpi", "300", "--unit", "m"],
        ["--from", "5,5", "--to", "5,5", "--distance", "1"],
        ["--from", "0,0", "--to", "10,0", "--distance", "0"],
        ["--from", "0,0", "--to", "10,0", "--distance", "1", "--unit", "yd"],
        ["--from", "0;0", "--to", "10,0", "--distance", "1"],
        ["--paper-scale", "100", "--dpi", "300"],
        ["--paper-scale", "1:100", "--dpi", "-3"],
    ])
    func usageErrors(arguments: [String]) throws {
        let sandbox = try measuredSandbox()
        let result = try sandbox.run(["drawing", "calibrate", "A"] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(try sandbox.run(["drawing", "show", "A"]).stdout.contains("scale: none"))
    }

    @Test func measureNeedsAScale() async throws {
        let sandbox = try measuredSandbox()
        let refused = try sandbox.run(["measure", "A", "0,0", "3,4"])
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(refused.stderr == "planmark: drawing \"A\": no scale; calibrate it first with 'planmark drawing calibrate'\n")
        #expect(try sandbox.run(["measure", "B", "0,0", "3,4"]).status == 66)
        #expect(try sandbox.run(["drawing", "calibrate", "B", "--paper-scale", "1:100", "--dpi", "300"]).status == 66)
        #expect(try sandbox.run(["measure", "A", "0,0"]).status == 64)
    }
}
