import Foundation
import Hummingbird
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkPostgres
import PlanMarkSQLite
import PlanMarkStoreTestSupport
import PlanMarkTestSupport
import Testing
@testable import PlanMarkServer
@testable import PlanMarkStore

/// The team's role table, cell by cell, over the HTTP API and on both back ends: for each role and action, a request
/// that the role may make (answered) or may not (403, or 404 for what it may not see), and nothing changed by a
/// refused one. The expected answers are the issue's table written out here by hand, not read from
/// `ProjectRole.permission`.
@Suite struct RoleTableTests {
    enum Kind: String, CaseIterable, Sendable { case sqlite, postgres }
    static let kinds: [Kind] = TestDatabases.required ? Kind.allCases : [.sqlite]

    /// What a role may do, as the issue's table says: "yes", "theirs" (on markers assigned to them) or "no".
    static let table: [String: [ProjectRole: String]] = [
        "read drawings":   [.viewer: "yes", .subcontractor: "yes",    .inspector: "yes", .manager: "yes", .admin: "yes"],
        "read markers":    [.viewer: "yes", .subcontractor: "theirs", .inspector: "yes", .manager: "yes", .admin: "yes"],
        "place":           [.viewer: "no",  .subcontractor: "no",     .inspector: "yes", .manager: "yes", .admin: "yes"],
        "edit":            [.viewer: "no",  .subcontractor: "no",     .inspector: "yes", .manager: "yes", .admin: "yes"],
        "advance status":  [.viewer: "no",  .subcontractor: "theirs", .inspector: "yes", .manager: "yes", .admin: "yes"],
        "verify status":   [.viewer: "no",  .subcontractor: "no",     .inspector: "no",  .manager: "yes", .admin: "yes"],
        "attach":          [.viewer: "no",  .subcontractor: "theirs", .inspector: "yes", .manager: "yes", .admin: "yes"],
        "comment":         [.viewer: "no",  .subcontractor: "theirs", .inspector: "yes", .manager: "yes", .admin: "yes"],
        "delete":          [.viewer: "no",  .subcontractor: "no",     .inspector: "no",  .manager: "yes", .admin: "yes"],
        "manage drawings": [.viewer: "no",  .subcontractor: "no",     .inspector: "no",  .manager: "no",  .admin: "yes"],
    ]

    /// A store of `kind` with drawing "site" in project "Site" and drawing "other" in project "Elsewhere"; one user
    /// per role in Site (the subcontractor works for Tiles Ltd), each with a token.
    static func store(_ kind: Kind, in folder: URL) async throws -> (any AnnotationStore, [ProjectRole: String]) {
        let store: any AnnotationStore
        switch kind {
        case .sqlite: store = try SQLiteStore(path: folder.appendingPathComponent("store.sqlite").path, create: true)
        case .postgres: store = try await PostgresStore(url: try TestDatabases.fresh(), create: true)
        }
        let regions = try RegionsFile.read(path: ServerFixture.sampleRegions)
        _ = try await store.addProject(named: "Site")
        _ = try await store.addProject(named: "Elsewhere")
        _ = try await store.addDrawing(NewDrawing(name: "site", imagePath: ServerFixture.samplePlan, project: "Site"), regions: regions)
        _ = try await store.addDrawing(NewDrawing(name: "other", imagePath: ServerFixture.samplePlan, project: "Elsewhere"), regions: regions)
        _ = try await store.addMarker(to: "other", NewMarker(position: PixelPoint(x: 450, y: 400)), author: nil)
        var tokens: [ProjectRole: String] = [:]
        for role in ProjectRole.allCases {
            let name = role.rawValue
            _ = try await store.addUser(User(name: name, email: "\(name)@example.com", company: role == .subcontractor ? "Tiles Ltd" : nil,
                                             createdAt: .now()))
            _ = try await store.grant(role, in: "Site", to: name)
            tokens[role] = try await store.addToken(for: name, label: nil, expires: nil).secret
        }
        return (store, tokens)
    }

    /// A new marker on "site", assigned to `assignee`, in `status`, made by the operator (the store itself).
    static func marker(_ store: any AnnotationStore, assignee: String, status: MarkerStatus = .open) async throws -> Int {
        var new = NewMarker(position: PixelPoint(x: 450, y: 400))
        new.assignee = assignee
        new.status = status
        return try await store.addMarker(to: "site", new, author: "operator").marker.number
    }

    @Test(arguments: kinds, ProjectRole.allCases)
    func everyCellOfTheRoleTable(kind: Kind, role: ProjectRole) async throws {
        let folder = try TestFolder.make("planmark-roles")
        let (store, tokens) = try await Self.store(kind, in: folder)
        let application = try PlanMarkApplication.application(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, allowedHosts: [ServerFixture.testClientHost],
                                               headTimeout: ServerFixture.headTimeout, idleTimeout: ServerFixture.headTimeout),
            store: StoreAccess(store), logger: quietLogger, liveEvents: false)
        let auth: HTTPFields = [.authorization: "Bearer " + tokens[role]!]
        let photo = try Data(contentsOf: URL(fileURLWithPath: ServerFixture.samplePlan))
        try await application.test(.router) { client in
            func send(_ method: HTTPRequest.Method, _ uri: String, _ json: String? = nil) async throws -> TestResponse {
                var headers = auth
                if json != nil { headers[.contentType] = "application/json" }
                return try await client.execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
            }
            func attach(_ number: Int) async throws -> TestResponse {
                var headers = auth
                headers[.contentType] = "image/png"
                return try await client.execute(uri: "/drawings/site/markers/\(number)/attachments", method: .post, headers: headers,
                                                body: ByteBuffer(bytes: photo))
            }
            /// `response` is what the table's `cell` says for a marker that is (`theirs`) or is not the user's.
            func expect(_ response: TestResponse, _ cell: String, theirs: Bool, allowed: HTTPResponse.Status, _ what: String,
                        sourceLocation: SourceLocation = #_sourceLocation) {
                let may = Self.table[cell]![role]!
                let expected: HTTPResponse.Status
                if may == "yes" || (may == "theirs" && theirs) {
                    expected = allowed
                } else if Self.table["read markers"]![role] == "theirs" && !theirs && cell != "place" && cell != "manage drawings"
                            && cell != "read drawings" {
                    expected = .notFound  // a subcontractor cannot see another's marker at all
                } else {
                    expected = .forbidden
                }
                #expect(response.status == expected, "\(kind) \(role) \(what): \(response.text)", sourceLocation: sourceLocation)
                if expected == .forbidden {
                    #expect(response.errorCode == "forbidden" && response.errorMessage?.contains(role.rawValue) == true, sourceLocation: sourceLocation)
                }
            }

            // Read drawings: the drawing, its image, regions, revisions, the tile that holds the whole sheet.
            let tiles = (try await send(.get, "/drawings/site")).object["tiles"] as? [String: Any]
            let top = tiles?["minZoom"] as? Int ?? 0
            for path in ["/drawings/site", "/drawings/site/image", "/drawings/site/regions", "/drawings/site/revisions",
                         "/drawings/site/tiles/\(top)/0/0.png"] {
                expect(try await send(.get, path), "read drawings", theirs: true, allowed: .ok, path)
            }
            // Read markers: one assigned to the subcontractor's company, one not.
            let theirs = try await Self.marker(store, assignee: "tiles ltd")
            let others = try await Self.marker(store, assignee: "Someone Else")
            for (number, isTheirs) in [(theirs, true), (others, false)] {
                for path in ["/drawings/site/markers/\(number)", "/drawings/site/markers/\(number)/history",
                             "/drawings/site/markers/\(number)/attachments", "/drawings/site/markers/\(number)/comments"] {
                    expect(try await send(.get, path), "read markers", theirs: isTheirs, allowed: .ok, path)
                }
            }
            // Lists, counts, images and reports hold what the role sees: the subcontractor only theirs.
            let listed = features(try await send(.get, "/drawings/site/markers")).map { $0.properties["number"] as? Int }
            #expect(listed == (role == .subcontractor ? [theirs] : [theirs, others]), "\(kind) \(role)")
            #expect((try await send(.get, "/drawings/site/summary")).object["total"] as? Int == (role == .subcontractor ? 1 : 2))
            #expect((try await send(.get, "/drawings/site")).object["markers"] as? Int == (role == .subcontractor ? 1 : 2))
            #expect((try await send(.get, "/drawings/site/review.png?scale=0.25")).status == .ok)

            // Place.
            expect(try await send(.post, "/drawings/site/markers", #"{"x":450,"y":400}"#), "place", theirs: true, allowed: .created, "POST")
            // Edit, on theirs and on another's.
            for (number, isTheirs) in [(theirs, true), (others, false)] {
                expect(try await send(.patch, "/drawings/site/markers/\(number)", #"{"note":"checked"}"#), "edit", theirs: isTheirs, allowed: .ok,
                       "PATCH note")
            }
            // Advance the status: open -> in-progress -> ready.
            for isTheirs in [true, false] {
                let number = try await Self.marker(store, assignee: isTheirs ? "Tiles Ltd" : "Someone Else")
                expect(try await send(.patch, "/drawings/site/markers/\(number)", #"{"status":"in-progress"}"#), "advance status",
                       theirs: isTheirs, allowed: .ok, "open -> in-progress")
                let ready = try await Self.marker(store, assignee: isTheirs ? "Tiles Ltd" : "Someone Else", status: .inProgress)
                expect(try await send(.patch, "/drawings/site/markers/\(ready)", #"{"status":"ready"}"#), "advance status",
                       theirs: isTheirs, allowed: .ok, "in-progress -> ready")
            }
            // Verify, reject (with a reason), void, reopen.
            for (from, to, body) in [(MarkerStatus.ready, "closed", #"{"status":"closed"}"#),
                                     (.ready, "open", #"{"status":"open","reason":"still cracked"}"#),
                                     (.open, "void", #"{"status":"void"}"#), (.closed, "open", #"{"status":"open"}"#)] {
                let number = try await Self.marker(store, assignee: "Tiles Ltd", status: from)
                expect(try await send(.patch, "/drawings/site/markers/\(number)", body), "verify status", theirs: true, allowed: .ok,
                       "\(from.rawValue) -> \(to)")
                if Self.table["verify status"]![role] == "no" {
                    #expect(try await store.marker(number, in: "site").status == from)
                }
            }
            // Attach a photo.
            for (number, isTheirs) in [(theirs, true), (others, false)] {
                expect(try await attach(number), "attach", theirs: isTheirs, allowed: .created, "attach")
            }
            // Comment: the answer is the comment, by the signed-in user; a refused one stores nothing.
            for (number, isTheirs) in [(theirs, true), (others, false)] {
                let before = try await store.comments(ofMarker: number, in: "site").count
                let answer = try await send(.post, "/drawings/site/markers/\(number)/comments", #"{"text":"looked at it"}"#)
                expect(answer, "comment", theirs: isTheirs, allowed: .created, "comment")
                let after = try await store.comments(ofMarker: number, in: "site")
                if answer.status == .created {
                    #expect(after.count == before + 1 && after.last?.author == role.rawValue, "\(kind) \(role)")
                    #expect(answer.object["author"] as? String == role.rawValue && answer.object["text"] as? String == "looked at it")
                } else {
                    #expect(after.count == before, "\(kind) \(role): a refused comment was stored")
                }
            }
            // Delete.
            for isTheirs in [true, false] {
                let number = try await Self.marker(store, assignee: isTheirs ? "Tiles Ltd" : "Someone Else")
                expect(try await send(.delete, "/drawings/site/markers/\(number)"), "delete", theirs: isTheirs, allowed: .ok, "DELETE")
                if Self.table["delete"]![role] == "no" { #expect(try await store.marker(number, in: "site").number == number) }
            }
            // Manage the drawing (a rename to the name it has, which changes nothing when allowed).
            expect(try await send(.patch, "/drawings/site", #"{"name":"site"}"#), "manage drawings", theirs: true, allowed: .ok, "PATCH drawing")

            // Another project's drawing is not there for anyone of Site: every path of it is 404, lists leave it out.
            for path in ["/drawings/other", "/drawings/other/markers", "/drawings/other/markers/1", "/drawings/other/markers/1/history",
                         "/drawings/other/markers/1/attachments", "/drawings/other/markers/1/comments", "/drawings/other/summary", "/drawings/other/image",
                         "/drawings/other/tiles/\(top)/0/0.png", "/drawings/other/report.pdf", "/drawings/other/review.png",
                         "/drawings/other/regions", "/drawings/other/revisions"] {
                let answer = try await send(.get, path)
                #expect(answer.status == .notFound && answer.errorCode == "unknown-drawing", "\(kind) \(role) \(path)")
            }
            #expect(try await send(.post, "/drawings/other/markers", #"{"x":450,"y":400}"#).status == .notFound)
            #expect(try await send(.patch, "/drawings/other/markers/1", #"{"note":"x"}"#).status == .notFound)
            #expect(try await send(.delete, "/drawings/other/markers/1").status == .notFound)
            #expect(try await send(.post, "/drawings/other/markers/1/comments", #"{"text":"x"}"#).status == .notFound)
            #expect(try await send(.delete, "/drawings/other").status == .notFound)
            #expect(try await send(.patch, "/drawings/other", #"{"name":"mine"}"#).status == .notFound)
            let names = ((try await send(.get, "/drawings")).object["drawings"] as? [[String: Any]])?.map { $0["name"] as? String }
            #expect(names == ["site"])
        }
        // Nothing of the other project was changed.
        #expect(try await store.drawing(named: "other").markerCount == 1)
    }
}
