import PlanMarkGeometry
import PlanMarkRender
import Testing

/// `ReviewRenderer.overlay`: what the review image draws over a drawing, as contours and text. Every expected value is
/// the scene's own numbers scaled by hand.
@Suite struct ReviewOverlayTests {
    /// A 1000 x 800 drawing at scale 0.5 is a 500 x 400 overlay. The room (100..300 x 100..300) is filled with the
    /// style's room colour over exactly its corners halved; marker 7 at (600, 400) with a 20 px pin is a disc of
    /// radius 10 around (300, 200) in the valid colour (every point within 0.05 px of that circle, the flattening's
    /// tolerance), with the label 7 as text; the layout puts the pin there.
    @Test func shapesAndTextAreTheSceneScaled() throws {
        let room = try Region(id: "R", coordinates: [[[PixelPoint(x: 100, y: 100), PixelPoint(x: 300, y: 100), PixelPoint(x: 300, y: 300),
                                                       PixelPoint(x: 100, y: 300)]]])
        let marker = ReviewMarker(label: "7", position: PixelPoint(x: 600, y: 400), state: .valid)
        let renderer = ReviewRenderer()
        let overlay = try renderer.overlay(drawingWidth: 1000, drawingHeight: 800, regions: [room], markers: [marker], scale: 0.5, markerSize: 20)
        #expect(overlay.width == 500 && overlay.height == 400)

        let style = ReviewStyle.standard
        let fills = overlay.items.compactMap { item -> (contours: [[PixelPoint]], colour: Colour, evenOdd: Bool)? in
            if case .fill(let contours, let colour, let evenOdd) = item { return (contours, colour, evenOdd) }
            return nil
        }
        let roomFill = try #require(fills.first { $0.colour == style.roomFill })
        #expect(!roomFill.evenOdd && roomFill.contours.count == 1)
        let corners = Set(roomFill.contours.flatMap { $0 }.map { "\($0.x),\($0.y)" })
        #expect(corners == ["50.0,50.0", "150.0,50.0", "150.0,150.0", "50.0,150.0"], "\(corners)")

        let body = try #require(fills.last { $0.colour == style.colour(for: .valid) })
        let points = body.contours.flatMap { $0 }
        #expect(body.contours.count == 1 && points.count >= 8)
        for point in points {
            let distance = ((point.x - 300) * (point.x - 300) + (point.y - 200) * (point.y - 200)).squareRoot()
            #expect(abs(distance - 10) < 0.05, "\(point)")
        }
        let labels = overlay.items.compactMap { item -> String? in
            if case .text(let text, _, _, _, _) = item { return text }
            return nil
        }
        #expect(labels == ["7"])
        #expect(overlay.layout.pins.map(\.centre) == [PixelPoint(x: 300, y: 200)])
    }

    /// A scale outside (0, 1] is refused as `render` refuses it.
    @Test func scaleOutOfRangeIsRefused() {
        #expect(throws: ReviewError.invalidScale(1.5)) {
            try ReviewRenderer().overlay(drawingWidth: 10, drawingHeight: 10, regions: [], markers: [], scale: 1.5)
        }
    }
}
