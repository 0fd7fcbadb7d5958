import Foundation
import Hummingbird
import PlanMarkGeometry
import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// A tap POSTed as latLng at zoom z comes back from `GET markers?zoom=z` as the same latLng.
@Suite struct LatLngRoundTripTests {
    /// Taps inside room 2.01 ([200, 700] x [150, 650]) expressed at each zoom: lat = -y / s, lng = x / s
    /// with s = 2^z (Leaflet) or 256 * 2^z (flutter_map). Odd decimals on purpose.
    @Test(arguments: [
        ("leaflet", 0.0), ("leaflet", 3.0), ("leaflet", 8.0), ("leaflet", 10.0), ("leaflet", -2.0),
        ("flutter", 0.0), ("flutter", 2.0), ("flutter", -1.0),
    ])
    func tapComesBackUnchanged(crs: String, zoom: Double) async throws {
        let flavour = crs == "flutter" ? CRSFlavourName.flutter : .leaflet
        let fixture = try await ServerFixture(extra: [NewDrawing(name: "d", imagePath: ServerFixture.samplePlan, zoom: 5, crs: flavour.value)])
        defer { fixture.remove() }
        let scale = (crs == "flutter" ? 256 : 1) * pow(2, zoom)
        let pixels: [(Double, Double)] = [(451.123456789, 398.987654321), (250.5, 600.25), (699.999, 150.001)]
        let taps = pixels.map { (lat: -$0.1 / scale, lng: $0.0 / scale) }
        try await fixture.application().test(.router) { client in
            for tap in taps {
                let response = try await client.send(.post, "/drawings/d/markers", json: "{\"lat\":\(tap.lat),\"lng\":\(tap.lng),\"zoom\":\(zoom)}")
                #expect(response.status == .created, "\(response.text)")
                #expect(response.object["rooms"] as? [String] == ["2.01"])
            }
            let list = features(try await client.get("/drawings/d/markers?zoom=\(zoom)"))
            #expect(list.map(\.coordinates) == taps.map { [$0.lng, $0.lat] })
        }
    }

    /// At a fractional zoom the scale is not a power of two, so a round trip may differ in the last bit.
    @Test func fractionalZoomWithinRounding() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let tap = (lat: -123.456789, lng: 87.654321), zoom = 2.5
        try await fixture.application().test(.router) { client in
            let response = try await client.send(.post, "/drawings/plan/markers", json: "{\"lat\":\(tap.lat),\"lng\":\(tap.lng),\"zoom\":\(zoom)}")
            #expect(response.status == .created)
            let back = features(try await client.get("/drawings/plan/markers?zoom=2.5")).first?.coordinates ?? []
            #expect(back.count == 2)
            #expect(abs(back[0] - tap.lng) <= 1e-12 * abs(tap.lng))
            #expect(abs(back[1] - tap.lat) <= 1e-12 * abs(tap.lat))
        }
    }
}

/// The CRS flavour by name (keeps test arguments plain strings).
enum CRSFlavourName {
    case leaflet, flutter
    var value: CRSFlavour { self == .leaflet ? .leaflet : .flutter }
}
