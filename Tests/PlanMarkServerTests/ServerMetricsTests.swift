import Dispatch
import Foundation
import Hummingbird
import PlanMarkGeometry
import PlanMarkStore
import PlanMarkSQLite
import Testing
@testable import PlanMarkServer
import PlanMarkTestSupport

/// `GET /metrics`: the body is read by an independent reader, Python's `prometheus_client` parser
/// (`pip install prometheus-client`; .ci/run installs it), and every figure expected is counted by hand from the
/// requests the test makes.
@Suite(.hangGuard) struct ServerMetricsTests {
    /// One sample as the parser reads it.
    struct Sample {
        var family: String
        var type: String
        var name: String
        var labels: [String: String]
        var value: Double
    }

    /// The samples of a `/metrics` body, parsed by `prometheus_client.parser.text_string_to_metric_families`.
    static func parse(_ text: String) throws -> [Sample] {
        let probe = try ProcessRunner.run("/usr/bin/env", ["python3", "-c", "import prometheus_client"])
        try #require(probe.status == 0, """
            python3 cannot import prometheus_client, so /metrics cannot be read: install it with \
            `pip install prometheus-client` (.ci/run does). \(probe.stderr)
            """)
        let file = TestFolder.path("planmark-metrics", extension: "txt")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ProcessRunner.run("/usr/bin/env", ["python3", "-c", """
            import json, sys
            from prometheus_client.parser import text_string_to_metric_families
            out = []
            for family in text_string_to_metric_families(open(sys.argv[1]).read()):
                for sample in family.samples:
                    out.append({"family": family.name, "type": family.type, "name": sample.name,
                                "labels": sample.labels, "value": sample.value})
            print(json.dumps(out))
            """, file.path])
        try #require(result.status == 0, "the parser refused the body: \(result.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return list.map { item in
            Sample(family: item["family"] as? String ?? "", type: item["type"] as? String ?? "",
                   name: item["name"] as? String ?? "", labels: item["labels"] as? [String: String] ?? [:],
                   value: (item["value"] as? NSNumber)?.doubleValue ?? .nan)
        }
    }

    static let token = "m3trics-s3cret-token"
    static let auth: HTTPFields = [.authorization: "Bearer \(token)"]

    static let markersRoute = "/drawings/{name}/markers"
    static let tileRoute = "/drawings/{name}/tiles/{z}/{x}/{y}.png"

    /// A known sequence of requests, then `/metrics` read twice: requests by route, method and status, the latency
    /// histograms, store calls, the lanes and the tile cache, each figure counted by hand from the requests.
    @Test func metricsCountAKnownSequenceOfRequests() async throws {
        let (fixture, _, _) = try await TileEndpointTests.smallFixture()
        defer { fixture.remove() }
        try await fixture.application(token: Self.token).test(.router) { client in
            // 1: without the token: 401 (route /metrics).
            let refused = try await client.get("/metrics")
            #expect(refused.status == .unauthorized)
            // 2-4: three marker lists, 200 (store call "markers" ok x3); one with a search text in its query. The
            // second is the first's listing again: kept (a hit); the first and third are made (misses).
            for uri in ["/drawings/plan/markers", "/drawings/plan/markers", "/drawings/plan/markers?q=PRIVATEWORDS"] {
                #expect(try await client.get(uri, headers: Self.auth).status == .ok)
            }
            // 5: an unknown drawing: 404 on the same route ("markers" refused x1).
            #expect(try await client.get("/drawings/nosuchsheet/markers", headers: Self.auth).status == .notFound)
            // 6: no such path: 404, route `unmatched`.
            #expect(try await client.get("/no/such/path?note=PRIVATEWORDS", headers: Self.auth).status == .notFound)
            // 7: a method no one knows on /drawings: 405, method `other`.
            let brew = try await client.execute(uri: "/drawings", method: try #require(HTTPRequest.Method("BREW")),
                                                headers: Self.auth)
            #expect(brew.status == .methodNotAllowed)
            // 8-9: one tile twice: a miss (its pyramid made), then a hit. "tileDrawing" ok x2, "tileImage" ok x1.
            #expect(try await client.get("/drawings/small/tiles/8/0/0.png", headers: Self.auth).status == .ok)
            #expect(try await client.get("/drawings/small/tiles/8/0/0.png", headers: Self.auth).status == .ok)
            // 10: the first read of /metrics (not counted in its own body); 11: the second.
            let first = try await client.get("/metrics", headers: Self.auth)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            #expect(first.headers[.cacheControl] == "no-store")
            let second = try await client.get("/metrics", headers: Self.auth)
            #expect(second.status == .ok)

            for body in [first.text, second.text] {
                #expect(!body.contains(Self.token), "the token is in the metrics")
                #expect(!body.contains("PRIVATEWORDS") && !body.contains("nosuchsheet") && !body.contains("/no/such"),
                        "a raw path or query is in the metrics")
            }
            let samples = try Self.parse(first.text)
            func value(_ name: String, _ labels: [String: String]) -> Double? {
                let found = samples.filter { $0.name == name && $0.labels == labels }
                return found.count == 1 ? found[0].value : nil
            }
            let requests = "planmark_http_requests_total"
            #expect(samples.first { $0.name == requests }?.type == "counter")
            #expect(value(requests, ["route": "/metrics", "method": "GET", "status": "401"]) == 1)
            #expect(value(requests, ["route": Self.markersRoute, "method": "GET", "status": "200"]) == 3)
            #expect(value(requests, ["route": Self.markersRoute, "method": "GET", "status": "404"]) == 1)
            #expect(value(requests, ["route": "unmatched", "method": "GET", "status": "404"]) == 1)
            #expect(value(requests, ["route": "/drawings", "method": "other", "status": "405"]) == 1)
            #expect(value(requests, ["route": Self.tileRoute, "method": "GET", "status": "200"]) == 2)
            #expect(value(requests, ["route": "/metrics", "method": "GET", "status": "200"]) == nil)
            // Nothing else was asked: 9 requests before the first read.
            #expect(samples.filter { $0.name == requests }.reduce(0) { $0 + $1.value } == 9)
            #expect(Set(samples.filter { $0.name == requests }.compactMap { $0.labels["route"] })
                    == ["/metrics", Self.markersRoute, "unmatched", "/drawings", Self.tileRoute])

            // Latency: one histogram a route and method, counting its requests whatever their status.
            let duration = "planmark_http_request_duration_seconds"
            for (route, method, count) in [(Self.markersRoute, "GET", 4.0), ("/metrics", "GET", 1), (Self.tileRoute, "GET", 2),
                                           ("unmatched", "GET", 1), ("/drawings", "other", 1)] {
                let labels = ["route": route, "method": method]
                #expect(value(duration + "_count", labels) == count, "\(route)")
                Self.expectConsistentBuckets(samples, duration, labels, count: count)
                #expect((value(duration + "_sum", labels) ?? -1) >= 0)
            }
            #expect(samples.first { $0.name == duration + "_count" }?.type == "histogram")

            // Store calls, by the operation's name and how it ended; their time.
            let operations = "planmark_store_operations_total"
            #expect(value(operations, ["operation": "markers", "outcome": "ok"]) == 3)
            #expect(value(operations, ["operation": "markers", "outcome": "refused"]) == 1)
            #expect(value(operations, ["operation": "tileDrawing", "outcome": "ok"]) == 2)
            #expect(value(operations, ["operation": "tileImage", "outcome": "ok"]) == 1)
            #expect(samples.filter { $0.name == operations }.reduce(0) { $0 + $1.value } == 7)
            let storeDuration = "planmark_store_operation_duration_seconds"
            for (operation, count) in [("markers", 4.0), ("tileDrawing", 2), ("tileImage", 1)] {
                #expect(value(storeDuration + "_count", ["operation": operation]) == count, "\(operation)")
                Self.expectConsistentBuckets(samples, storeDuration, ["operation": operation], count: count)
            }

            // Gauges: no store call now, no connection held or waited for (of SQLite's one writer and five readers,
            // GRDB's default); the request in flight is the read itself.
            #expect(value("planmark_store_calls_in_progress", [:]) == 0)
            #expect(value("planmark_store_connections_in_use", [:]) == 0)
            #expect(value("planmark_store_connections_waiting", [:]) == 0)
            #expect(value("planmark_store_connections_max", [:]) == 6)
            #expect(value("planmark_http_requests_in_flight", [:]) == 1)
            #expect(samples.first { $0.name == "planmark_store_calls_in_progress" }?.type == "gauge")

            // The tile cache.
            #expect(value("planmark_tile_cache_lookups_total", ["result": "miss"]) == 1)
            #expect(value("planmark_tile_cache_lookups_total", ["result": "hit"]) == 1)
            // The marker listings kept (the unknown drawing is refused before any lookup).
            #expect(value("planmark_marker_list_cache_lookups_total", ["result": "miss"]) == 2)
            #expect(value("planmark_marker_list_cache_lookups_total", ["result": "hit"]) == 1)

            // The second read counts the first.
            let again = try Self.parse(second.text)
            let scrapes = again.first { sample in
                sample.name == requests && sample.labels == ["route": "/metrics", "method": "GET", "status": "200"]
            }
            #expect(scrapes?.value == 1)
        }
    }

    /// The histogram `name` with `labels`: buckets never decrease as `le` grows, `+Inf` holds `count`, as `_count` does.
    static func expectConsistentBuckets(_ samples: [Sample], _ name: String, _ labels: [String: String],
                                        count: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        let buckets = samples.filter { sample in
            sample.name == name + "_bucket" && sample.labels.filter { $0.key != "le" } == labels
        }.map { (le: Double($0.labels["le"] ?? "") ?? .nan, value: $0.value) }.sorted { $0.le < $1.le }
        #expect(buckets.count >= 2, "\(name) \(labels) has no buckets", sourceLocation: sourceLocation)
        #expect(zip(buckets, buckets.dropFirst()).allSatisfy { $0.value <= $1.value }, "\(name) \(labels)",
                sourceLocation: sourceLocation)
        #expect(buckets.last?.le == .infinity && buckets.last?.value == count, "\(name) \(labels)",
                sourceLocation: sourceLocation)
    }

    /// Two servers alive in one process: each `/metrics` shows only its own requests.
    @Test func eachServerShowsItsOwnFigures() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let one = try fixture.application()
        let other = try fixture.application()
        try await one.test(.router) { first in
            try await other.test(.router) { second in
                for _ in 0..<2 { #expect(try await first.get("/drawings").status == .ok) }
                #expect(try await second.get("/drawings/plan").status == .ok)
                let samplesOne = try Self.parse(try await first.get("/metrics").text)
                let samplesOther = try Self.parse(try await second.get("/metrics").text)
                let requests = "planmark_http_requests_total"
                func series(_ samples: [Sample], _ name: String) -> [String] {
                    samples.filter { $0.name == name }.map { sample in
                        let labels = sample.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                        return labels.joined(separator: ",") + " \(sample.value)"
                    }
                }
                #expect(series(samplesOne, requests) == ["method=GET,route=/drawings,status=200 2.0"])
                #expect(series(samplesOther, requests) == ["method=GET,route=/drawings/{name},status=200 1.0"])
                // Beside the sign-in's own look at whether the store has users (`hasUsers`, at most once a second, so
                // as often as the requests' timing makes it).
                func served(_ samples: [Sample]) -> [String] {
                    series(samples, "planmark_store_operations_total").filter { !$0.hasPrefix("operation=hasUsers,") }
                }
                #expect(served(samplesOne) == ["operation=drawings,outcome=ok 2.0"])
                #expect(served(samplesOther) == ["operation=drawing,outcome=ok 1.0"])
            }
        }
    }

    /// A store call is in progress from its start until it returns (then 0 again).
    @Test func storeCallIsInProgressUntilItEnds() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let metrics = ServerMetrics()
        let access = StoreAccess(fixture.store).measured(by: metrics)
        let (started, startedSignal) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseSignal) = AsyncStream.makeStream(of: Void.self)
        let call = Task {
            try await access.run("held") { store throws(StoreError) -> Int in
                startedSignal.yield()
                for await _ in release { break }
                return try await store.drawings().count
            }
        }
        for await _ in started { break }
        func gauge(_ name: String) throws -> Double? {
            try Self.parse(String(decoding: metrics.render(), as: UTF8.self)).first { $0.name == name }?.value
        }
        #expect(try gauge("planmark_store_calls_in_progress") == 1)
        releaseSignal.yield()
        #expect(try await call.value == 1)
        #expect(try gauge("planmark_store_calls_in_progress") == 0)
        let samples = try Self.parse(String(decoding: metrics.render(), as: UTF8.self))
        #expect(samples.first { $0.name == "planmark_store_operations_total" }?.labels == ["operation": "held", "outcome": "ok"])
    }

    /// The connection gauges: with an SQLite store's five readers held (each inside a marker listing's read), a sixth
    /// listing waits for a reader; `GET /metrics` says 5 in use, 1 waiting, of at most 6 (GRDB's documented default of
    /// five readers, and the one writer). Once released, every listing ends and the gauges are 0 again.
    @Test func connectionGaugesCountCallsHoldingAndWaitingForAConnection() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: PixelPoint(x: 450, y: 400), note: nil, author: nil)
        let metrics = ServerMetrics()
        let readers = 5
        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let store = fixture.store
        func listing() -> Task<Int, any Error> {
            Task {
                var seen = 0
                // The callback runs on GRDB's reader thread, inside the read: blocking it there holds the reader.
                try await store.forEachMarker(in: "plan", filter: MarkerFilter()) { _ in
                    seen += 1
                    inside.signal()
                    release.wait()
                    return true
                }
                return seen
            }
        }
        var holders: [Task<Int, any Error>] = []
        for _ in 0..<readers {
            holders.append(listing())
            await withCheckedContinuation { continuation in DispatchQueue.global().async { inside.wait(); continuation.resume() } }
        }
        let queued = listing()
        func gauges() throws -> [String: Double] {
            let samples = try Self.parse(String(decoding: metrics.render(connections: store.connectionUsage), as: UTF8.self))
            return Dictionary(uniqueKeysWithValues: samples.filter { $0.name.hasPrefix("planmark_store_connections_") }.map { ($0.name, $0.value) })
        }
        // The sixth call counts as waiting as soon as it asks for a reader; no event says when that is.
        while store.connectionUsage.waiting < 1 { await Task.yield() }
        #expect(try gauges() == ["planmark_store_connections_in_use": 5, "planmark_store_connections_waiting": 1,
                                 "planmark_store_connections_max": 6])
        for _ in 0...readers { release.signal() }
        for holder in holders { #expect(try await holder.value == 1) }
        #expect(try await queued.value == 1)
        #expect(try gauges() == ["planmark_store_connections_in_use": 0, "planmark_store_connections_waiting": 0,
                                 "planmark_store_connections_max": 6])
    }

    /// The review page's files are one route, `review-page`; a path beside them that is not served is `unmatched`.
    @Test func reviewPageFilesAreOneRoute() async throws {
        let fixture = try await ServerFixture()
        let folders = try ReviewPageServingTests.PageFolders()
        defer { fixture.remove(); folders.remove() }
        let page = try ReviewPageFiles(webRoot: folders.web, leafletDirectory: folders.leaflet)
        try await ReviewPageServingTests().application(fixture, page: page, token: Self.token).test(.router) { client in
            for path in ["/", "/app/app.js", "/leaflet/leaflet.css"] {
                #expect(try await client.get(path).status == .ok, "\(path)")
            }
            // Not a page file, so behind the token.
            #expect(try await client.get("/app/notes.md").status == .unauthorized)
            let body = try await client.get("/metrics", headers: Self.auth).text
            #expect(!body.contains("notes.md") && !body.contains("app.js") && !body.contains(Self.token))
            let samples = try Self.parse(body).filter { $0.name == "planmark_http_requests_total" }
            #expect(samples.count == 2)
            #expect(samples.first { $0.labels == ["route": "review-page", "method": "GET", "status": "200"] }?.value == 3)
            #expect(samples.first { $0.labels == ["route": "unmatched", "method": "GET", "status": "401"] }?.value == 1)
        }
    }

    /// Route labels are the routes' templates, whatever the path's values; anything else is no route.
    @Test func routeLabelsAreTemplates() async {
        let table = PlanMarkRoutes.table
        #expect(table.template(for: "/drawings/a%20b/tiles/-3/1/2.png") == "/drawings/{name}/tiles/{z}/{x}/{y}.png")
        #expect(table.template(for: "/drawings/x/markers/12/attachments/7")
                == "/drawings/{name}/markers/{number}/attachments/{id}")
        #expect(table.template(for: "/metrics") == "/metrics")
        #expect(table.template(for: "/drawings/") == nil)
        #expect(table.template(for: "/secret/path") == nil)
        #expect(ServerMetrics.methodLabel(HTTPRequest.Method("BREW")!) == "other")
        #expect(ServerMetrics.methodLabel(.patch) == "PATCH")
    }
}
