import Foundation
import Hummingbird
import Testing
@testable import PlanMarkServer

/// `GET /drawings/{name}/review.png` through the renderer.
@Suite struct ReviewImageTests {
    @Test func wholeSheetScaledAndCropped() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: nil, author: nil)
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 900, y: 300), note: nil, author: nil)
        _ = try await fixture.store.setStatus(.closed, ofMarker: 2, in: "plan", author: nil)
        try await fixture.application().test(.router) { client in
            let whole = try await client.get("/drawings/plan/review.png")
            #expect(whole.status == .ok)
            #expect(whole.headers[.contentType] == "image/png")
            #expect(pngSize(whole.body)! == (2400, 1600))
            let half = try await client.get("/drawings/plan/review.png?scale=0.5&legend=true&status=open")
            // The sheet at half size, and the legend in a margin right of it (or below: docs/render.md).
            let halfSize = pngSize(half.body)!
            #expect(halfSize.0 >= 1200 && halfSize.1 >= 800 && halfSize != (1200, 800))
            let halfBare = try await client.get("/drawings/plan/review.png?scale=0.5")  // no filter, no legend: no panel
            #expect(pngSize(halfBare.body)! == (1200, 800))
            // A square of 2 x 100 pixels around marker 1, well inside the sheet.
            let crop = try await client.get("/drawings/plan/review.png?around=1&margin=100")
            #expect(pngSize(crop.body)! == (200, 200))
        }
    }

    @Test func markerSizeOverridesThePinSize() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: nil, author: nil)
        try await fixture.application().test(.router) { client in
            let standard = try await client.get("/drawings/plan/review.png?around=1&margin=100")
            let big = try await client.get("/drawings/plan/review.png?around=1&margin=100&markerSize=120")
            #expect(big.status == .ok)
            #expect(pngSize(big.body)! == (200, 200))
            // The 200 x 200 crop draws a 20 px pin by default (2% of 200 is below the 20 px minimum);
            // a 120 px one is another picture.
            #expect(Array(big.body.readableBytesView) != Array(standard.body.readableBytesView))
        }
    }

    @Test(arguments: [
        ("/drawings/plan/review.png?around=9", 404, "unknown-marker"),
        ("/drawings/plan/review.png?around=2&status=open", 404, "unknown-marker"),
        ("/drawings/plan/review.png?scale=2", 400, "invalid-field"),
        ("/drawings/plan/review.png?scale=0", 400, "invalid-field"),
        ("/drawings/plan/review.png?margin=10", 400, "invalid-field"),
        ("/drawings/plan/review.png?status=done", 400, "invalid-field"),
        ("/drawings/plan/review.png?markerSize=0", 400, "invalid-field"),
        ("/drawings/plan/review.png?markerSize=-4", 400, "invalid-field"),
        ("/drawings/plan/review.png?markerSize=20001", 400, "invalid-field"),
        ("/drawings/plan/review.png?markerSize=big", 400, "invalid-field"),
    ])
    func badReviewRequests(path: String, status: Int, code: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 450, y: 400), note: nil, author: nil)
        _ = try await fixture.store.addMarker(to: "plan", at: .init(x: 900, y: 300), note: nil, author: nil)
        _ = try await fixture.store.setStatus(.closed, ofMarker: 2, in: "plan", author: nil)
        try await fixture.application().test(.router) { client in
            let response = try await client.get(path)
            #expect(response.status.code == status)
            #expect(response.errorCode == code)
        }
    }
}
