import Testing
@testable import PlanMarkFormats
import PlanMarkGeometry

private func read(_ text: String) throws(FormatError) -> [Region] {
    try RegionsFile.parse(Array(text.utf8), source: "plan.geojson")
}

private func feature(_ head: String, _ geometry: String) -> String {
    "{\"type\":\"Feature\",\(head)\"geometry\":\(geometry)}"
}

private let square = #"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}"#

/// Reading regions files: ids, kinds, names, and errors that name the JSON path.
@Suite struct RegionsFileTests {
    @Test func idsKindsNames() async throws {
        let text = """
        {"type":"FeatureCollection","features":[
        \(feature(#""id":"2.04","properties":{"name":"Kitchen"},"#, square)),
        \(feature(#""id":7,"properties":{"kind":"allowed"},"#, square)),
        \(feature(#""properties":{"id":"P"},"#, square)),
        \(feature(#""properties":null,"#, #"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1]]],[[[5,5],[6,5],[6,6]]]]}"#))
        ]}
        """
        let regions = try read(text)
        #expect(regions.map(\.id) == ["2.04", "7", "P", "4"])
        #expect(regions.map(\.kind) == [.room, .allowed, .room, .room])
        #expect(regions[0].name == "Kitchen")
        #expect(regions[3].polygons.count == 2)
        #expect(regions[0].polygons[0].exterior.vertices.count == 4)
    }

    @Test(arguments: [
        (#"{"type":"Feature"}"#, "plan.geojson: $.type: expected \"FeatureCollection\""),
        (#"{"type":"FeatureCollection","features":[\#(feature("", #"{"type":"Point","coordinates":[1,2]}"#))]}"#,
         "plan.geojson: $.features[0].geometry.type: expected Polygon or MultiPolygon, found Point"),
        (#"{"type":"FeatureCollection","features":[\#(feature(#""id":"A","properties":{"kind":"hall"},"#, square))]}"#,
         "plan.geojson: $.features[0].properties.kind: expected \"room\" or \"allowed\", found \"hall\""),
        (#"{"type":"FeatureCollection","features":[\#(feature(#""id":"B","#, #"{"type":"Polygon","coordinates":[[[0,0],[10,10],[10,0],[0,10]]]}"#))]}"#,
         "plan.geojson: $.features[0].geometry: region B: ring 0: is self-intersecting (edges 0 and 2 meet)"),
        (#"{"type":"FeatureCollection","features":[\#(feature(#""id":"C","#, #"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10]],[[1,1],[2,2],[3,3]]]}"#))]}"#,
         "plan.geojson: $.features[0].geometry: region C: ring 1: has zero area (all vertices on one line)"),
        (#"{"type":"FeatureCollection","features":[\#(feature(#""id":"D","#, #"{"type":"Polygon","coordinates":[[[0,0],[10,"a"],[10,10]]]}"#))]}"#,
         "plan.geojson: $.features[0].geometry.coordinates[0][1]: expected a position [x, y]"),
        (#"{"type":"FeatureCollection","features":[\#(feature(#""id":"E","#, square)),\#(feature(#""id":"E","#, square))]}"#,
         "plan.geojson: $.features[1].id: duplicate region id \"E\""),
        ("{\"type\":\"FeatureCollection\",\n\"features\":[}", "plan.geojson:2: unexpected character '}'"),        (#"{"type":"FeatureCollection","features":[\#(feature(#""id":"L","properties":{"labelBox":[1,2,3]},"#, square))]}"#,
         "plan.geojson: $.features[0].properties.labelBox: expected [minX, minY, maxX, maxY] with minX <= maxX and minY <= maxY"),
        (#"{"type":"FeatureCollection","features":[\#(feature(#""id":"L","properties":{"labelBox":[5,2,4,3]},"#, square))]}"#,
         "plan.geojson: $.features[0].properties.labelBox: expected [minX, minY, maxX, maxY] with minX <= maxX and minY <= maxY"),
        (#"{"type":"FeatureCollection","features":[\#(feature(#""id":"L","properties":{"labelBox":[1,"2",3,4]},"#, square))]}"#,
         "plan.geojson: $.features[0].properties.labelBox: expected [minX, minY, maxX, maxY] with minX <= maxX and minY <= maxY"),
        (#"{"type":"FeatureCollection","features":[\#(feature(#""id":"L","properties":{"labelBox":"1,2,3,4"},"#, square))]}"#,
         "plan.geojson: $.features[0].properties.labelBox: expected [minX, minY, maxX, maxY] with minX <= maxX and minY <= maxY"),
    ])
    func errors(_ text: String, _ message: String) {
        do {
            _ = try read(text)
            Issue.record("accepted")
        } catch {
            #expect(error.description == message)
            #expect(error.kind == .malformed)
        }
    }

    @Test func missingFile() async {
        do {
            _ = try RegionsFile.read(path: "/nonexistent/regions.geojson")
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .missingInput)
            #expect(error.description == "/nonexistent/regions.geojson: no such file")
        }
    }

    @Test func writerRoundTrip() async throws {
        let text = """
        {"type":"FeatureCollection","features":[
        \(feature(#""id":"R","properties":{"name":"A \"b\""},"#, #"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10]],[[4,4],[6,4],[6,6],[4,6]]]}"#)),
        \(feature(#""id":"M","properties":{"kind":"allowed"},"#, #"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1]]],[[[5,5],[6,5],[6,6]]]]}"#))
        ]}
        """
        let regions = try read(text)
        let written = RegionsGeoJSONWriter.featureCollection(regions)
        #expect(try read(written) == regions)
        #expect(written.contains(#""coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[4,4],[6,4],[6,6],[4,6],[4,4]]]"#))
    }

    /// A room's label box is read in GeoJSON's `bbox` order and written back as read (`null` is no box); through a
    /// map's transform (y up) its corners are sorted again.
    @Test func labelBox() async throws {
        let text = """
        {"type":"FeatureCollection","features":[
        \(feature(#""id":"2.01","properties":{"name":"Office","labelBox":[365,368.5,534,427]},"#, square)),
        \(feature(#""id":"2.02","properties":{"labelBox":null},"#, square))
        ]}
        """
        let regions = try read(text)
        #expect(regions[0].labelBox == BoundingBox(minX: 365, minY: 368.5, maxX: 534, maxY: 427))
        #expect(regions[1].labelBox == nil)
        let written = RegionsGeoJSONWriter.featureCollection(regions)
        #expect(written.contains(#""labelBox":[365,368.5,534,427]"#))
        #expect(written.ranges(of: "labelBox").count == 1)
        #expect(try read(written) == regions)
        // y up, as a map's latitude: (365, 368.5) and (534, 427) become (365, -368.5) and (534, -427).
        let flipped = RegionsGeoJSONWriter.featureCollection(regions) { ($0.x, -$0.y) }
        #expect(flipped.contains(#""labelBox":[365,-427,534,-368.5]"#))
    }
}

