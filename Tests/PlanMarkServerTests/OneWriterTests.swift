import Foundation
import PlanMarkGeometry
import PlanMarkStore
import Testing

/// The CLI and the service write markers with one writer: for the same store, `planmark markers NAME
/// --format geojson [--latlng --zoom Z] [--status S]` prints exactly the bytes `GET /drawings/NAME/markers
/// [?zoom=Z][&status=S]` answers with.
@Suite struct OneWriterTests {
    @Test(.hangGuard)
    func cliExportAndServiceAnswerAreByteIdentical() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        // Text that needs escaping in JSON, non-ASCII text, no note, a resolved marker, half pixels.
        _ = try await fixture.store.addMarker(to: "plan", at: PixelPoint(x: 450, y: 400), note: "say \"hi\", then\nleave", author: "ana")
        _ = try await fixture.store.addMarker(to: "plan", at: PixelPoint(x: 1200.5, y: 600.25), note: nil, author: "Zoë")
        _ = try await fixture.store.addMarker(to: "plan", at: PixelPoint(x: 1500.125, y: 500), note: "tab\there", author: nil)
        _ = try await fixture.store.setStatus(.closed, ofMarker: 2, in: "plan", author: "ana")

        let server = try await RunningServer(
            executable: BuiltProducts.path("planmark-server"), arguments: ["--store", fixture.storePath, "--port", "0"])
        let cases: [(query: String, cli: [String])] = [
            ("", []),
            ("?zoom=3", ["--latlng", "--zoom", "3"]),
            ("?zoom=2.5&status=open", ["--latlng", "--zoom", "2.5", "--status", "open"]),
        ]
        for (query, options) in cases {
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("GET /drawings/plan/markers\(query) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n")
            let answer = try await connection.readAnswer()
            #expect(answer.status == 200)
            let cli = try ProcessRunner.run(BuiltProducts.path("planmark"),
                                            ["markers", "plan", "--store", fixture.storePath, "--format", "geojson"] + options)
            #expect(cli.status == 0, "\(cli.stderr)")
            #expect(Array(cli.stdout.utf8) == answer.body, "\(query)\nCLI:     \(cli.stdout)\nservice: \(answer.text)")
        }
        // The shape both share: pixel x, y in the properties always; lat, lng there and [lng, lat] as the
        // position at a zoom. Marker 1 at pixel (450, 400), Leaflet zoom 3 (scale 8): lat -50, lng 56.25.
        let cli = try ProcessRunner.run(BuiltProducts.path("planmark"),
                                        ["markers", "plan", "--store", fixture.storePath, "--format", "geojson", "--latlng", "--zoom", "3"])
        // The ref (`id`) is null for a marker placed one by one; the uuid is the store's own (random).
        #expect(cli.stdout.hasPrefix(#"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[56.25,-50]},"properties":{"id":null,"uuid":""#))
        #expect(cli.stdout.contains(#"","number":1,"x":450,"y":400,"lat":-50,"lng":56.25,"status":"open","category":null,"priority":"normal","assignee":null,"due":null,"capturedAt":null,"note":"#))
        #expect(await server.stop() == 0)
    }
}
