import Testing
@testable import PlanMarkFormats
import PlanMarkGeometry

/// A shape in LabelMe's exact layout (`labelme/_label_file.py`, `_dump_shape_to_json_obj`).
private func shape(_ label: String, _ points: String, type: String, group: String = "null") -> String {
    """
    {"label": "\(label)", "points": \(points), "group_id": \(group), "description": "", "shape_type": "\(type)", "flags": {}, "mask": null}
    """
}

/// A whole LabelMe file (`write_label_file`'s top level) of `shapes` on a `width` x `height` image.
private func labelMe(_ shapes: [String], width: Int = 600, height: Int = 400) -> String {
    """
    {"version": "5.8.1", "flags": {}, "shapes": [\(shapes.joined(separator: ", "))], "imagePath": "plan.png", "imageData": null, \
    "imageHeight": \(height), "imageWidth": \(width)}
    """
}

private func read(_ text: String, size: DrawingSize? = nil) throws(FormatError) -> RegionsInput {
    try RegionsInput.parse(Array(text.utf8), source: "plan.json", drawingSize: size)
}

private func p(_ x: Double, _ y: Double) -> PixelPoint { PixelPoint(x: x, y: y) }

/// LabelMe files: which shapes become which regions, what is skipped, and writing one back.
@Suite struct LabelMeFileTests {
    @Test func shapesBecomeRegions() async throws {
        let input = try read(labelMe([
            shape("Kitchen", "[[100, 50], [300, 50], [300, 200], [100, 200]]", type: "polygon"),
            shape("Hall", "[[300, 50], [500, 150]]", type: "rectangle"),
            shape("lamp", "[[50, 50], [60, 60]]", type: "circle"),
            shape("allowed", "[[0, 0], [600, 0], [600, 400], [0, 400]]", type: "polygon"),
            shape("Store", "[[10, 300], [40, 300], [40, 330]]", type: "polygon", group: "1"),
            shape("Store", "[[100, 300], [140, 300], [140, 340]]", type: "polygon", group: "1"),
            shape("wall", "[[0, 0], [10, 10]]", type: "line"),
            shape("allowed-yard", "[[0, 350], [50, 350], [50, 400]]", type: "polygon"),
            shape("7", "[[20, 20]]", type: "point"),
        ]))
        #expect(input.imageSize == DrawingSize(width: 600, height: 400))
        #expect(input.regions.map(\.id) == ["Kitchen", "Hall", "allowed", "Store", "allowed-yard"])
        #expect(input.regions.map(\.name) == ["Kitchen", "Hall", "allowed", "Store", "allowed-yard"])
        #expect(input.regions.map(\.kind) == [.room, .room, .allowed, .room, .allowed])
        // The rectangle's two corners make four vertices: (300,50) (500,50) (500,150) (300,150).
        #expect(input.regions[1].polygons[0].exterior.vertices == [p(300, 50), p(500, 50), p(500, 150), p(300, 150)])
        #expect(input.regions[1].area == 20_000)
        // One group_id: one room of two polygons.
        #expect(input.regions[3].polygons.count == 2)
        #expect(input.regions[3].area == 450 + 800)
        #expect(input.skipped.map(\.description) == [
            #"shapes[2]: skipped circle "lamp""#, #"shapes[6]: skipped line "wall""#, #"shapes[8]: skipped point "7""#,
        ])
    }

    /// Shapes with one label but no group_id (or different ones) are separate regions: `label#k` ids.
    @Test func repeatedLabels() async throws {
        let input = try read(labelMe([
            shape("WC", "[[0, 0], [10, 0], [10, 10]]", type: "polygon"),
            shape("WC", "[[20, 0], [30, 0], [30, 10]]", type: "polygon", group: "2"),
            shape("WC", "[[40, 0], [50, 0], [50, 10]]", type: "polygon", group: "3"),
            shape("WC", "[[60, 0], [70, 0], [70, 10]]", type: "polygon", group: "2"),
            shape("Bath", "[[0, 50], [10, 50], [10, 60]]", type: "polygon"),
        ]))
        #expect(input.regions.map(\.id) == ["WC#1", "WC#2", "WC#3", "Bath"])
        #expect(input.regions.map(\.polygons.count) == [1, 2, 1, 1])
        #expect(input.regions.allSatisfy { $0.name == ($0.id == "Bath" ? "Bath" : "WC") })
    }

    @Test func imageSizeMustMatchTheDrawing() async throws {
        let text = labelMe([shape("Kitchen", "[[0, 0], [10, 0], [10, 10]]", type: "polygon")], width: 800, height: 600)
        #expect(try read(text, size: DrawingSize(width: 800, height: 600)).regions.count == 1)
        let error = #expect(throws: FormatError.self) { try read(text, size: DrawingSize(width: 600, height: 400)) }
        #expect(error?.kind == .malformed)
        #expect(error?.description == "plan.json: $.imageWidth: the LabelMe image is 800x600 px but the drawing is 600x400 px")
    }

    @Test(arguments: [
        (labelMe([shape("A", "[[0, 0], [10, 0], [10, 10]]", type: "rectangle")]),
         "plan.json: $.shapes[0].points: a rectangle has two corner points, found 3"),
        (labelMe([shape("A", "[[0, 0], [10, 0], [10, 10]]", type: "polygon", group: "1.5")]),
         "plan.json: $.shapes[0].group_id: expected an integer or null, found a number"),
        (labelMe([shape("A", "[[0, 0], [10, \"x\"], [10, 10]]", type: "polygon")]),
         "plan.json: $.shapes[0].points[1]: expected a point [x, y]"),
        (labelMe([shape("", "[[0, 0], [10, 0], [10, 10]]", type: "polygon")]),
         "plan.json: $.shapes[0].label: expected a room's name or \"allowed\", found an empty label"),
        (#"{"shapes": [], "imageWidth": 0, "imageHeight": 10}"#, "plan.json: $.imageWidth: expected a positive whole number of pixels"),
        (#"{"shapes": {}, "imageWidth": 10, "imageHeight": 10}"#, "plan.json: $.shapes: expected an array of shapes"),
    ])
    func refused(text: String, message: String) {
        let error = #expect(throws: FormatError.self) { try read(text) }
        #expect(error?.kind == .malformed)
        #expect(error?.description == message)
    }

    /// A polygon's ring faults are reported at the shape's points.
    @Test func badRing() async {
        let error = #expect(throws: FormatError.self) {
            try read(labelMe([shape("A", "[[0, 0], [10, 0]]", type: "polygon")]))
        }
        #expect(error?.path == "$.shapes[0].points")
    }

    /// GeoJSON is still GeoJSON (its top level says so) and has no image size.
    @Test func geoJSONIsNotLabelMe() async throws {
        let input = try read(#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"R","geometry":{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,3],[0,0]]]}}]}"#)
        #expect(input.regions.map(\.id) == ["R"])
        #expect(input.imageSize == nil)
        #expect(input.skipped.isEmpty)
    }

    /// The written layout, worked out by hand from `write_label_file` (key order version, flags, shapes,
    /// imagePath, imageData, imageHeight, imageWidth; shapes label, points, group_id, description,
    /// shape_type, flags, mask).
    @Test func writesLabelMeLayout() async throws {
        let room = try Region(id: "R1", name: "Kitchen", coordinates: [[[p(0, 0), p(40, 0), p(40, 30)]]])
        let allowed = try Region(id: "A", kind: .allowed, coordinates: [[[p(0, 0), p(60, 0), p(60, 40), p(0, 40)]]])
        let document = LabelMeFile.document(regions: [room, allowed], points: [LabelMePoint(label: "3", position: p(5.5, 7))],
                                            imagePath: "plan.png", imageWidth: 60, imageHeight: 40)
        #expect(document.omissions.isEmpty)
        #expect(document.text == """
            {
              "version": "7.1.0",
              "flags": {},
              "shapes": [
                {
                  "label": "Kitchen",
                  "points": [[0, 0], [40, 0], [40, 30]],
                  "group_id": null,
                  "description": "",
                  "shape_type": "polygon",
                  "flags": {},
                  "mask": null
                },
                {
                  "label": "allowed A",
                  "points": [[0, 0], [60, 0], [60, 40], [0, 40]],
                  "group_id": null,
                  "description": "",
                  "shape_type": "polygon",
                  "flags": {},
                  "mask": null
                },
                {
                  "label": "3",
                  "points": [[5.5, 7]],
                  "group_id": null,
                  "description": "",
                  "shape_type": "point",
                  "flags": {},
                  "mask": null
                }
              ],
              "imagePath": "plan.png",
              "imageData": null,
              "imageHeight": 40,
              "imageWidth": 60
            }

            """)
    }

    /// Read back, a written file gives the same regions (ids are labels; holes are left out and said so).
    @Test func roundTrip() async throws {
        let regions = [
            try Region(id: "Kitchen", name: "Kitchen", coordinates: [[[p(0, 0), p(40, 0), p(40, 30), p(0, 30)]]]),
            try Region(id: "Store", name: "Store", coordinates: [[[p(100, 0), p(120, 0), p(120, 20)]], [[p(200, 0), p(220, 0), p(220, 20)]]]),
            try Region(id: "allowed", kind: .allowed, name: "allowed", coordinates: [[[p(0, 0), p(300, 0), p(300, 100), p(0, 100)]]]),
        ]
        let written = LabelMeFile.document(regions: regions, points: [LabelMePoint(label: "1", position: p(10, 10))],
                                           imagePath: "plan.png", imageWidth: 300, imageHeight: 100)
        let back = try read(written.text, size: DrawingSize(width: 300, height: 100))
        #expect(back.regions == regions)
        #expect(back.skipped.map(\.description) == [#"shapes[4]: skipped point "1""#])

        let holed = try Region(id: "H", coordinates: [[[p(0, 0), p(90, 0), p(90, 90), p(0, 90)], [p(10, 10), p(20, 10), p(20, 20)]]])
        let withHole = LabelMeFile.document(regions: [holed], imagePath: "plan.png", imageWidth: 100, imageHeight: 100)
        #expect(withHole.omissions.map(\.description) == [#"region "H": 1 hole left out (LabelMe polygons have none)"#])
    }
}

/// Area and perimeter in the regions GeoJSON, and the calibration's JSON.
@Suite struct MeasuredRegionsTests {
    private let room: Region = try! Region(id: "R", coordinates: [[
        [p(100, 50), p(500, 50), p(500, 350), p(100, 350)], [p(200, 100), p(300, 100), p(300, 200), p(200, 200)],
    ]])

    @Test func areaAndPerimeterOnlyWithAScale() async {
        let without = RegionsGeoJSONWriter.featureCollection([room])
        #expect(!without.contains("area") && !without.contains("perimeter"))
        // 0.125 m/px: 110,000 px2 / 64 = 1,718.75 m2; 1,800 px / 8 = 225 m (already at 0.01 m² and 1 mm, so the
        // rounded keys equal the Exact ones).
        let with = RegionsGeoJSONWriter.featureCollection([room], metresPerPixel: 0.125)
        #expect(with.hasPrefix(#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"R","properties":{"kind":"room","area":1718.75,"perimeter":225,"areaExact":1718.75,"perimeterExact":225},"#))
    }

    @Test func calibrationJSON() async {
        let two = Calibration.twoPoints(from: p(100, 50), to: p(500, 50.5), distance: 4, unit: .mm)
        #expect(CalibrationJSON.object(two) == #"{"method":"two-points","from":[100,50],"to":[500,50.5],"distance":4,"unit":"mm"}"#)
        #expect(CalibrationJSON.parse(CalibrationJSON.object(two)) == two)
        let paper = Calibration.paperScale(paper: 1, reality: 100, dpi: 300)
        #expect(CalibrationJSON.object(paper) == #"{"method":"paper-scale","scale":"1:100","dpi":300}"#)
        #expect(CalibrationJSON.parse(CalibrationJSON.object(paper)) == paper)
        #expect(CalibrationJSON.parseScale("1:12.5")! == (1, 12.5))
        #expect(CalibrationJSON.parseScale("1:0") == nil)
        #expect(CalibrationJSON.parseScale("100") == nil)
        #expect(CalibrationJSON.parse(#"{"method":"guess"}"#) == nil)
    }
}
