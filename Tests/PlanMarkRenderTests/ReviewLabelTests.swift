import Foundation
import PlanMarkGeometry
import Testing
@testable import PlanMarkRender

/// Pins kept off the rooms' labels (`Region.labelBox`) where there is room.
@Suite("Review pins: off the rooms' labels")
struct ReviewLabelTests {
    /// The sample's rooms, read here with Foundation's JSON reader (not PlanMark's): a square per room's box is enough
    /// for the renderer, and the label boxes are the ones Pillow measured when it drew the labels (`make_sample.py`).
    static func sampleRooms(withLabels: Bool) throws -> [Region] {
        let url = PNGFixtures.repositoryRoot.appendingPathComponent("Drawings/sample/regions.geojson")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let features = try #require(root["features"] as? [[String: Any]])
        return try features.compactMap { feature -> Region? in
            let properties = try #require(feature["properties"] as? [String: Any])
            guard let box = properties["labelBox"] as? [Double] else { return nil }
            let label = BoundingBox(minX: box[0], minY: box[1], maxX: box[2], maxY: box[3])
            let corners = [PixelPoint(x: label.minX - 20, y: label.minY - 20), PixelPoint(x: label.maxX + 20, y: label.minY - 20),
                           PixelPoint(x: label.maxX + 20, y: label.maxY + 20), PixelPoint(x: label.minX - 20, y: label.maxY + 20)]
            return try Region(id: try #require(feature["id"] as? String), coordinates: [[corners]], labelBox: withLabels ? label : nil)
        }
    }

    /// Pixels of `image` inside `box` whose colour is exactly `colour` (alpha aside).
    static func pixels(of colour: Colour, in image: RGBAImage, box: BoundingBox) -> Int {
        var count = 0
        for y in Int(box.minY)..<Int(box.maxY) {
            for x in Int(box.minX)..<Int(box.maxX) {
                let i = (y * image.width + x) * 4
                if image.pixels[i] == colour.red && image.pixels[i + 1] == colour.green && image.pixels[i + 2] == colour.blue { count += 1 }
            }
        }
        return count
    }

    /// Distance from a pin's middle segment (its centre ± its half length) to `box`; 0 when they touch.
    static func distance(_ pin: ReviewLayout.Pin, to box: BoundingBox) -> Double {
        let dx = max(0, box.minX - (pin.centre.x + pin.halfLength), (pin.centre.x - pin.halfLength) - box.maxX)
        let dy = max(0, box.minY - pin.centre.y, pin.centre.y - box.maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    @Test("the sample: a marker on each room's label gets its pin beside the label, with a leader line to its place")
    func pinsBesideTheSampleLabels() async throws {
        let plan = PNGFixtures.repositoryRoot.appendingPathComponent("Drawings/sample/plan.png").path
        let source = try PNGDecoder().decode(path: plan)
        let rooms = try Self.sampleRooms(withLabels: true)
        #expect(rooms.count == 8)
        let labels = rooms.compactMap(\.labelBox)
        let markers = labels.enumerated().map { k, box in
            ReviewMarker(label: String(k + 1), position: PixelPoint(x: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2),
                         state: .status(.open))
        }
        let style = ReviewStyle.standard
        let open = style.colour(for: .status(.open))
        let (image, layout) = try ReviewRenderer(style: style).renderWithLayout(drawing: source, regions: rooms, markers: markers)
        #expect(layout.pins.count == 8 && layout.stacks.isEmpty)
        for pin in layout.pins {
            // The whole pin (halo and edge too) clear of every label, its leader line from its marker's place.
            #expect(labels.allSatisfy { Self.distance(pin, to: $0) >= pin.outerRadius }, "pin \(pin.marker + 1) at \(pin.centre)")
            #expect(pin.isDisplaced && pin.anchor == markers[pin.marker].position)
        }
        // What is left of the status colour on a label is the dot at the marker's place, not a pin's body.
        let painter = ReviewPainter(image: RasterTesting.image(width: 1, height: 1), style: style, transform: ReviewTransform(origin: PixelPoint(x: 0, y: 0), scaleX: 1, scaleY: 1),
                                    fontPath: nil, markerRadius: layout.markerRadius, outlineWidth: 1)
        let dotArea = Double.pi * (painter.dotRadius + 1) * (painter.dotRadius + 1)
        for box in labels { #expect(Double(Self.pixels(of: open, in: image, box: box)) <= dotArea) }

        // The same without label boxes: the pins sit on the labels, their bodies over the text.
        let (covered, coveredLayout) = try ReviewRenderer(style: style).renderWithLayout(
            drawing: source, regions: try Self.sampleRooms(withLabels: false), markers: markers)
        #expect(coveredLayout.pins.allSatisfy { !$0.isDisplaced })
        let bodyArea = Double.pi * coveredLayout.markerRadius * coveredLayout.markerRadius
        for box in labels { #expect(Double(Self.pixels(of: open, in: covered, box: box)) > bodyArea / 2) }
    }

    @Test("no room off the label: the pin stays at its place, counted in no stack; crowded pins still fan out over it")
    func stayWhenThereIsNoRoom() async throws {
        let everywhere = BoundingBox(minX: 0, minY: 0, maxX: 400, maxY: 400)
        let room = try Region(id: "1", coordinates: [[[PixelPoint(x: 0, y: 0), PixelPoint(x: 400, y: 0), PixelPoint(x: 400, y: 400)]]],
                              labelBox: everywhere)
        let renderer = ReviewRenderer(style: ReviewPinLayoutTests.style)
        let alone = [ReviewMarker(label: "1", position: PixelPoint(x: 200, y: 200), state: .valid)]
        let (_, one) = try renderer.renderWithLayout(drawing: RasterTesting.image(width: 400, height: 400), regions: [room], markers: alone)
        #expect(one.pins.map(\.centre) == [PixelPoint(x: 200, y: 200)] && one.stacks.isEmpty)
        // Two markers 4 px apart: one stays, the other is fanned out as without labels (not stacked for want of a clear place).
        let pair = alone + [ReviewMarker(label: "2", position: PixelPoint(x: 204, y: 200), state: .valid)]
        let (_, two) = try renderer.renderWithLayout(drawing: RasterTesting.image(width: 400, height: 400), regions: [room], markers: pair)
        let (_, bare) = try renderer.renderWithLayout(drawing: RasterTesting.image(width: 400, height: 400), regions: [], markers: pair)
        #expect(two.stacks.isEmpty && two.pins.count == 2)
        #expect(Set(two.pins.map(\.centre)) == Set(bare.pins.map(\.centre)))
    }
}
