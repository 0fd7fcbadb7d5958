import Foundation
import PlanMarkGeometry
import Testing
@testable import PlanMarkRender

/// Golden images of the review drawing at small sizes, checked by eye when they were made and
/// compared within 1 level per channel since (see `Goldens`; Fixtures/update-goldens.sh rewrites them).
@Suite("Review golden images")
struct ReviewGoldenTests {
    /// A light grey "drawing" with a dark wall line, so translucency and halos show.
    static func drawing(width: Int, height: Int) -> RGBAImage {
        var image = RasterTesting.image(width: width, height: height, colour: Colour(rgb: 0xF3F4F6))
        for x in 0..<width {
            for y in (height / 2)..<(height / 2 + 2) {
                let o = (y * width + x) * 4
                image.pixels[o] = 40; image.pixels[o + 1] = 40; image.pixels[o + 2] = 40
            }
        }
        return image
    }

    static func region(_ id: String, _ rings: [[(Double, Double)]], kind: RegionKind = .room) throws -> Region {
        try Region(id: id, kind: kind, coordinates: [rings.map { $0.map { PixelPoint(x: $0.0, y: $0.1) } }])
    }

    static let style: ReviewStyle = {
        var style = ReviewStyle.standard
        style.outlineWidth = 1.5
        style.markerRadius = 12
        return style
    }()

    @Test("a square room")
    func square() async throws {
        let room = try Self.region("A", [[(8.5, 8.5), (31.5, 8.5), (31.5, 31.5), (8.5, 31.5)]])
        let image = try ReviewRenderer(style: Self.style).render(
            drawing: Self.drawing(width: 40, height: 40), regions: [room], markers: [])
        try Goldens.expectMatch(image, name: "square")
    }

    @Test("a room with a hole and an allowed area")
    func roomWithHole() async throws {
        let room = try Self.region("B", [
            [(6, 6), (58.3, 6), (58.3, 24), (36, 42.7), (6, 42.7)],
            [(16.5, 14.5), (30.5, 14.5), (30.5, 30.5), (16.5, 30.5)],
        ])
        let allowed = try Self.region("C", [[(2, 2), (62, 2), (62, 46), (2, 46)]], kind: .allowed)
        let image = try ReviewRenderer(style: Self.style).render(
            drawing: Self.drawing(width: 64, height: 48), regions: [room, allowed], markers: [])
        try Goldens.expectMatch(image, name: "room-with-hole")
    }

    @Test("markers with 1 to 6 digits in every state")
    func markers() async throws {
        let markers = [
            ReviewMarker(label: "7", position: PixelPoint(x: 20, y: 22), state: .valid),
            ReviewMarker(label: "42", position: PixelPoint(x: 55, y: 22), state: .invalid(.outsideAllowedArea)),
            ReviewMarker(label: "318", position: PixelPoint(x: 95, y: 22), state: .status(.closed)),
            ReviewMarker(label: "2024", position: PixelPoint(x: 145, y: 22), state: .invalid(.outsideRooms)),
            ReviewMarker(label: "12345", position: PixelPoint(x: 50, y: 58), state: .valid),
            ReviewMarker(label: "123456", position: PixelPoint(x: 130, y: 58), state: .invalid(.outsideDrawing)),
        ]
        let image = try ReviewRenderer(style: Self.style).render(
            drawing: Self.drawing(width: 180, height: 80), regions: [], markers: markers)
        try Goldens.expectMatch(image, name: "markers")
    }

    @Test("legend and title, markers from a file")
    func legend() async throws {
        let room = try Self.region("A", [[(230, 50), (320, 50), (320, 130), (230, 130)]])
        let markers = [
            ReviewMarker(label: "1", position: PixelPoint(x: 250, y: 75), state: .valid),
            ReviewMarker(label: "2", position: PixelPoint(x: 295, y: 110), state: .valid),
            ReviewMarker(label: "3", position: PixelPoint(x: 300, y: 25), state: .invalid(.outsideRooms)),
        ]
        let image = try ReviewRenderer(style: Self.style).render(
            drawing: Self.drawing(width: 340, height: 150), regions: [room], markers: markers,
            options: ReviewOptions(legend: true, title: "Level 2"))
        try Goldens.expectMatch(image, name: "legend")
    }

    @Test("stored markers in every status, overdue rings, legend counts, title and filters")
    func statuses() async throws {
        let room = try Self.region("A", [[(20, 235), (380, 235), (380, 295), (20, 295)]])
        let markers = [
            ReviewMarker(label: "1", position: PixelPoint(x: 40, y: 265), state: .status(.open)),
            ReviewMarker(label: "2", position: PixelPoint(x: 90, y: 265), state: .status(.open), overdue: true),
            ReviewMarker(label: "3", position: PixelPoint(x: 140, y: 265), state: .status(.inProgress), overdue: true),
            ReviewMarker(label: "4", position: PixelPoint(x: 190, y: 265), state: .status(.ready)),
            ReviewMarker(label: "5", position: PixelPoint(x: 240, y: 265), state: .status(.closed)),
            ReviewMarker(label: "6", position: PixelPoint(x: 290, y: 265), state: .status(.void)),
            ReviewMarker(label: "7", position: PixelPoint(x: 350, y: 120), state: .invalid(.outsideRooms), overdue: true),
            ReviewMarker(label: "8", position: PixelPoint(x: 360, y: 40), state: .status(.closed)),
        ]
        let image = try ReviewRenderer(style: Self.style).render(
            drawing: Self.drawing(width: 400, height: 310), regions: [room], markers: markers,
            options: ReviewOptions(legend: true, title: "Level 2", filters: "status=open,ready; room=2.05"))
        try Goldens.expectMatch(image, name: "statuses")
    }

    @Test("crowded markers fanned out with leader lines, a stack badge, room areas in the legend")
    func crowded() async throws {
        let room = try Self.region("A", [[(250, 20), (460, 20), (460, 200), (250, 200)]])
        // Ten markers within 4 px of (320, 100), in every state: they fan out round their point, invalid first.
        let states: [ReviewMarkerState] = [.status(.open), .status(.closed), .invalid(.outsideRooms), .status(.ready),
                                           .status(.inProgress), .valid, .status(.void), .status(.open), .status(.open),
                                           .status(.open)]
        var markers = states.enumerated().map { k, state in
            ReviewMarker(label: String(k + 1), position: PixelPoint(x: 320 + Double(k % 3) * 2, y: 100 + Double(k / 3) * 1.3),
                         state: state, overdue: k == 7)
        }
        // Thirty on one point near the bottom right corner: those that find no place on the rings that fit the
        // image join one "+N" badge on the point.
        markers += (11...40).map { ReviewMarker(label: String($0), position: PixelPoint(x: 440, y: 230), state: .status(.open)) }
        let image = try ReviewRenderer(style: Self.style).render(
            drawing: Self.drawing(width: 480, height: 250), regions: [room], markers: markers,
            options: ReviewOptions(legend: true, roomAreas: [ReviewRoomArea(id: "2.03", name: "Meeting", squareMetres: 34.8417)]))
        try Goldens.expectMatch(image, name: "crowded")
    }

    @Test("around a marker: ringed, in place and on top of its crowd; the legend in the margin below or beside")
    func around() async throws {
        let room = try Self.region("A", [[(60, 40), (260, 40), (260, 200), (60, 200)]])
        let markers = [
            ReviewMarker(label: "11", position: PixelPoint(x: 150, y: 110), state: .status(.open)),
            ReviewMarker(label: "12", position: PixelPoint(x: 156, y: 112), state: .invalid(.outsideRooms)),
            ReviewMarker(label: "13", position: PixelPoint(x: 200, y: 110), state: .status(.ready), overdue: true),
            ReviewMarker(label: "14", position: PixelPoint(x: 150, y: 112), state: .status(.closed)),
        ]
        let image = try ReviewRenderer(style: Self.style).render(
            drawing: Self.drawing(width: 320, height: 240), regions: [room], markers: markers,
            options: ReviewOptions(legend: true, view: .around(label: "11", margin: 80)))
        try Goldens.expectMatch(image, name: "around")
    }
}
