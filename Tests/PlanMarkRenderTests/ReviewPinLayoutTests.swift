import Foundation
import PlanMarkGeometry
import Testing
@testable import PlanMarkRender

/// Pins that scale with the view, fanned out when they would overlap, and stack badges.
@Suite("Review pins: size and overlap")
struct ReviewPinLayoutTests {
    /// `ReviewStyle.standard` with a fixed 10 px pin body (so the sizes below are worked by hand).
    static let style: ReviewStyle = {
        var style = ReviewStyle.standard
        style.markerRadius = 10
        return style
    }()

    /// The colour at pixel (x, y).
    static func colour(_ image: RGBAImage, _ x: Int, _ y: Int) -> Colour {
        let i = (y * image.width + x) * 4
        return Colour(red: image.pixels[i], green: image.pixels[i + 1], blue: image.pixels[i + 2], alpha: image.pixels[i + 3])
    }

    /// `count` markers labelled 1...count, all valid, on a sunflower spiral of `spread` pixels around `centre`.
    static func cluster(_ count: Int, around centre: PixelPoint, spread: Double) -> [ReviewMarker] {
        (0..<count).map { k in
            let r = spread * (Double(k) / Double(count)).squareRoot(), angle = Double(k) * 2.399963
            return ReviewMarker(label: String(k + 1), position: PixelPoint(x: centre.x + r * cos(angle), y: centre.y + r * sin(angle)),
                                state: .valid)
        }
    }

    @Test("40 markers within 3 pixels: every number is drawn, no two pins overlap, each leader ends at its marker")
    func crowdedCluster() async throws {
        let markers = Self.cluster(40, around: PixelPoint(x: 200.4, y: 190.7), spread: 3)
        let (image, layout) = try ReviewRenderer(style: Self.style).renderWithLayout(
            drawing: RasterTesting.image(width: 400, height: 400), regions: [], markers: markers)
        // Every marker is a pin (there is room for all of them on the rings), each once.
        #expect(layout.stacks.isEmpty)
        #expect(layout.pins.map(\.marker).sorted() == Array(0..<40))
        // Body 10 (one digit; two grow the disc, at most to 13.5), halo max(1.5, 1.5) = 1.5, soft edge 1.
        for pin in layout.pins {
            #expect(pin.bodyRadius >= 10 && pin.bodyRadius <= 13.5 && pin.halfLength == 0)
            #expect(pin.outerRadius == pin.bodyRadius + 2.5)
            if pin.marker < 9 { #expect(pin.bodyRadius == 10) }
            #expect(pin.anchor == markers[pin.marker].position)  // scale 1, whole sheet: output pixels are drawing pixels
        }
        // No two discs (with halo and edge) overlap: centres at least the sum of their outer radii apart.
        for a in 0..<layout.pins.count {
            for b in (a + 1)..<layout.pins.count {
                let p = layout.pins[a].centre, q = layout.pins[b].centre
                #expect(((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
                        >= layout.pins[a].outerRadius + layout.pins[b].outerRadius,
                        "pins \(layout.pins[a].marker + 1) and \(layout.pins[b].marker + 1) overlap")
            }
        }
        let valid = ReviewStyle.standard.valid, label = ReviewStyle.standard.label
        for pin in layout.pins {
            let cx = pin.centre.x, cy = pin.centre.y
            // The body shows above and below the label (a later pin's white halo there would mean an overlap);
            // 7.5 px from the centre is clear of the label's ink (11 px digits are 8 px high) and the pixel there
            // (at most 8.6 px from the centre) lies inside the body of 10 px or more.
            #expect(Self.colour(image, Int(cx), Int(cy - 7.5)) == valid, "pin \(pin.marker + 1): body above the label")
            #expect(Self.colour(image, Int(cx), Int(cy + 7.5)) == valid, "pin \(pin.marker + 1): body below the label")
            // The number is drawn: white label ink near the centre (the halo starts 10 px out).
            var ink = 0
            for y in Int(cy) - 4...Int(cy) + 4 {
                for x in Int(cx) - 5...Int(cx) + 5 where Self.colour(image, x, y) == label { ink += 1 }
            }
            #expect(ink >= 4, "pin \(pin.marker + 1): no label ink")
            // All are crowded, so all are fanned out: the dot at the marker's own pixel has the marker's colour
            // (a 2.2 px dot covers the whole pixel holding its centre) ...
            #expect(pin.isDisplaced)
            #expect(Self.colour(image, Int(pin.anchor.x), Int(pin.anchor.y)) == valid, "pin \(pin.marker + 1): no dot at its marker")
            // ... and the leader line runs from the pin's edge to it: along the segment, every pixel is dark
            // (the leader, 1.2 px wide) unless another pin covers it; the last 10 px are left out, where the dots of
            // the cluster (3.2 px with their white rims, all within 6 px of each other) may lie over it.
            let dx = pin.anchor.x - cx, dy = pin.anchor.y - cy
            let length = (dx * dx + dy * dy).squareRoot()
            var t = 13.0
            while t < length - 10 {
                let x = cx + dx / length * t, y = cy + dy / length * t
                let underPin = layout.pins.contains { other in
                    ((other.centre.x - x) * (other.centre.x - x) + (other.centre.y - y) * (other.centre.y - y)).squareRoot() < other.outerRadius + 1.5
                }
                if !underPin {
                    #expect(Self.colour(image, Int(x), Int(y)).red < 200, "pin \(pin.marker + 1): leader missing at \(t) px")
                }
                t += 1
            }
        }
    }

    @Test("markers far apart stay where they are, without leader lines")
    func sparseMarkersStay() async throws {
        let markers = [
            ReviewMarker(label: "1", position: PixelPoint(x: 50, y: 50), state: .valid),
            ReviewMarker(label: "2", position: PixelPoint(x: 76, y: 50), state: .valid),  // 26 px: just clear of 25
            ReviewMarker(label: "3", position: PixelPoint(x: 150, y: 150), state: .invalid(.outsideRooms)),
        ]
        let (_, layout) = try ReviewRenderer(style: Self.style).renderWithLayout(
            drawing: RasterTesting.image(width: 200, height: 200), regions: [], markers: markers)
        #expect(layout.pins.count == 3 && layout.stacks.isEmpty)
        #expect(layout.pins.allSatisfy { !$0.isDisplaced })
    }

    @Test("two markers 20 px apart both move off, so both positions stay visible")
    func pairFansOut() async throws {
        let markers = [
            ReviewMarker(label: "1", position: PixelPoint(x: 100, y: 100), state: .valid),
            ReviewMarker(label: "2", position: PixelPoint(x: 120, y: 100), state: .valid),
        ]
        let (_, layout) = try ReviewRenderer(style: Self.style).renderWithLayout(
            drawing: RasterTesting.image(width: 200, height: 200), regions: [], markers: markers)
        #expect(layout.pins.count == 2 && layout.pins.allSatisfy(\.isDisplaced))
        // Ring 1 is one pin width and two gaps (25 + 2 px) from the position, ring 2 twice that.
        for pin in layout.pins {
            let d = ((pin.centre.x - pin.anchor.x) * (pin.centre.x - pin.anchor.x)
                + (pin.centre.y - pin.anchor.y) * (pin.centre.y - pin.anchor.y)).squareRoot()
            #expect(abs(d - 27) < 1e-9 || abs(d - 54) < 1e-9)
        }
    }

    @Test("300 markers on one pixel of a small sheet: the ones without room are counted in a stack badge")
    func stackBadge() async throws {
        let markers = (1...300).map { ReviewMarker(label: String($0), position: PixelPoint(x: 70, y: 70), state: .valid) }
        let (image, layout) = try ReviewRenderer(style: Self.style).renderWithLayout(
            drawing: RasterTesting.image(width: 140, height: 140), regions: [], markers: markers)
        // Outer radius 12.5, gap 1: rings every 2 x 12.5 + 2 = 27 px. Ring 2 (54 + 12.5 = 66.5 <= 70) fits the
        // 140 px sheet; ring 3 (81 px) fits only within 0.2 degrees of a diagonal, where it has no place (its places
        // are 20 degrees apart starting straight up); ring 4 (108 px) is beyond the corners' 81.3. So 6 + 12 = 18
        // pins, markers 1 to 18 in order, and the other 282 in one badge.
        #expect(layout.pins.map(\.marker).sorted() == Array(0..<18))
        #expect(layout.stacks.count == 1 && layout.stacks[0].markers == Array(18..<300))
        // The badge, "+282" in the stack colour, sits on the markers' position; its body shows below and above
        // the label.
        #expect(layout.stacks[0].centre == PixelPoint(x: 70, y: 70))
        #expect(Self.colour(image, 70, 62) == ReviewStyle.standard.stack)
        #expect(Self.colour(image, 70, 78) == ReviewStyle.standard.stack)
    }

    /// The horizontal extent of the pixels that are not white on the row through `y`.
    static func inkWidth(_ image: RGBAImage, row y: Int) -> Int {
        var first = -1, last = -1
        for x in 0..<image.width where colour(image, x, y) != .white {
            if first < 0 { first = x }
            last = x
        }
        return first < 0 ? 0 : last - first + 1
    }

    @Test("the pin's size follows 2% of the output's shorter side, at least 20 px, and markerSize overrides it")
    func pinSizeFollowsTheOutput() async throws {
        // One marker with an empty label, so its pin is a plain disc of the one-digit radius.
        let marker = [ReviewMarker(label: "", position: PixelPoint(x: 1500, y: 1000), state: .valid)]
        func render(_ options: ReviewOptions) throws -> (RGBAImage, ReviewLayout) {
            try ReviewRenderer().renderWithLayout(drawing: RasterTesting.image(width: 3000, height: 2000), regions: [],
                                                  markers: marker, options: options)
        }
        // 3000 x 2000: radius 0.02 x 2000 / 2 = 20, halo 0.15 x 20 = 3, edge 1: 48 px across.
        let (full, fullLayout) = try render(ReviewOptions())
        #expect(fullLayout.markerRadius == 20)
        #expect(abs(Self.inkWidth(full, row: 1000) - 48) <= 1)
        // Scale 0.5: 1500 x 1000, radius 0.02 x 1000 / 2 = 10 (the minimum), halo 1.5, edge 1: 25 px across.
        let (half, halfLayout) = try render(ReviewOptions(scale: 0.5))
        #expect(halfLayout.markerRadius == 10)
        #expect(abs(Self.inkWidth(half, row: 500) - 25) <= 1)
        // Scale 0.25: 750 x 500 would give 5; the minimum 10 holds.
        let (_, quarterLayout) = try render(ReviewOptions(scale: 0.25))
        #expect(quarterLayout.markerRadius == 10)
        // markerSize 80: radius 40, halo 6, edge 1: 94 px across, whatever the style says.
        var style = ReviewStyle.standard
        style.markerRadius = 12
        let (big, bigLayout) = try ReviewRenderer(style: style).renderWithLayout(
            drawing: RasterTesting.image(width: 3000, height: 2000), regions: [], markers: marker,
            options: ReviewOptions(markerSize: 80))
        #expect(bigLayout.markerRadius == 40)
        #expect(abs(Self.inkWidth(big, row: 1000) - 94) <= 1)
        for bad in [0.0, -3, .infinity, .nan, 10_001] {
            #expect(throws: ReviewError.self) { _ = try render(ReviewOptions(markerSize: bad)) }
        }
    }

    @Test("room areas in the legend: one line per room with two decimals and m²")
    func roomAreaLines() async throws {
        let entries = ReviewLegendEntry.entries(
            markers: [], regions: [], style: .standard,
            roomAreas: [ReviewRoomArea(name: "2.05 Office", squareMetres: 12.3456), ReviewRoomArea(name: "Hall", squareMetres: 7),
                        ReviewRoomArea(name: "Kitchen", squareMetres: 27.75), ReviewRoomArea(name: "Store", squareMetres: 24.999999999999993),
                        ReviewRoomArea(name: "Lobby", squareMetres: 1234.5)])
        // Quantity.squareMetres: 0.01 m², half away from zero on the decimal read (27.75 stays, noise goes).
        #expect(entries.map(\.text).prefix(5) == ["2.05 Office  12.35 m²", "Hall  7.00 m²", "Kitchen  27.75 m²", "Store  25.00 m²",
                                                   "Lobby  1234.50 m²"])
        // DejaVu Sans Bold has the superscript two, so the legend says m² rather than m2.
        #expect(try TextFont().hasGlyph("\u{B2}"))
        #expect(try !TextFont().hasGlyph("\u{E000}"))
    }
}
