import Foundation
import Testing
@testable import PlanMarkGeometry

/// Point location against GEOS (shapely 2.x) on floor-plan polygons: vertices and their ulp
/// neighbours, edge points and their ulp neighbours, rays through vertices, random points.
/// The labels were made once by `Fixtures/make_geos_cases.py`; every one must agree.
@Suite struct GEOSAgreementTests {
    struct Shape {
        var name: String
        var rings: [[PixelPoint]] = []
        var cases: [(PixelPoint, PointLocation)] = []
    }

    static func load() throws -> [Shape] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/geos-cases.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        var shapes: [Shape] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            switch fields[0] {
            case "polygon":
                shapes.append(Shape(name: String(fields[1])))
            case "ring", "hole":
                let numbers = fields.dropFirst().map { Double($0)! }
                shapes[shapes.count - 1].rings.append(stride(from: 0, to: numbers.count, by: 2).map {
                    PixelPoint(x: numbers[$0], y: numbers[$0 + 1])
                })
            case "case":
                let point = PixelPoint(x: Double(fields[1])!, y: Double(fields[2])!)
                shapes[shapes.count - 1].cases.append((point, PointLocation(rawValue: String(fields[3]))!))
            default:
                Issue.record("unexpected line \(line)")
            }
        }
        return shapes
    }

    @Test func agreesWithGEOS() async throws {
        let shapes = try Self.load()
        #expect(shapes.count >= 7)
        var total = 0
        for shape in shapes {
            let region = try Region(id: shape.name, coordinates: [shape.rings])
            let prepared = PreparedRegion(region)
            let index = RegionIndex([region])
            var disagreements = 0
            for (point, expected) in shape.cases {
                let plain = region.locate(point)
                let fast = prepared.locate(point)
                var indexed = PointLocation.outside
                index.forEachRegion(containing: point) { _, location in indexed = location }
                if plain != expected || fast != expected || indexed != expected {
                    disagreements += 1
                    if disagreements <= 5 {
                        Issue.record("\(shape.name) \(point): GEOS \(expected), plain \(plain), prepared \(fast), indexed \(indexed)")
                    }
                }
                total += 1
            }
            #expect(disagreements == 0, "\(shape.name)")
        }
        #expect(total > 30000)
    }
}
