import Foundation
import Hummingbird
import PlanMarkFormats
import PlanMarkGeometry
@testable import PlanMarkStore
import PlanMarkSQLite
import Testing
@testable import PlanMarkServer

/// The service signs users in with their tokens once the store has users (`SignInMiddleware`): who a request is from,
/// `GET /me`, the author the history records, revoked, expired and removed users' tokens refused at once, failed
/// sign-ins throttled by address, tokens never in the log.
@Suite struct SignInTests {
    /// A fixture whose store has ana (inspector in default, Tiles Ltd) and bo (no role), and a token for each.
    static func team() async throws -> (fixture: ServerFixture, ana: String, bo: String) {
        let fixture = try await ServerFixture()
        let store = fixture.store
        _ = try await store.addUser(User(name: "ana", email: "ana@example.com", company: "Tiles Ltd", createdAt: .now()))
        _ = try await store.addUser(User(name: "bo", email: "bo@example.org", createdAt: .now()))
        _ = try await store.grant(.inspector, in: "default", to: "ana")
        let ana = try await store.addToken(for: "ana", label: "phone", expires: nil).secret
        let bo = try await store.addToken(for: "bo", label: nil, expires: nil).secret
        return (fixture, ana, bo)
    }

    static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer " + token] }

    @Test func withoutUsersTheServerIsOpenAsBefore() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            #expect(try await client.get("/drawings").status == .ok)
            let me = try await client.get("/me")
            #expect(me.status == .ok)
            #expect(me.text == #"{"name":null,"email":null,"company":null,"projects":[],"operator":true}"# + "\n")
            // A POST without a signed-in user records the author it gives.
            let post = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400,"author":"site crew"}"#)
            #expect(post.status == .created)
        }
        #expect(try await fixture.store.history(of: "plan", number: 1).map(\.author) == ["site crew"])
    }

    @Test func usersSignInWithTheirTokens() async throws {
        let (fixture, ana, bo) = try await Self.team()
        defer { fixture.remove() }
        try await fixture.application(token: "operator-token").test(.router) { client in
            // Every request but /health needs a token now.
            #expect(try await client.get("/health").status == .ok)
            let missing = try await client.get("/drawings")
            #expect(missing.status == .unauthorized && missing.errorCode == "unauthorized")
            #expect(missing.headers[.wwwAuthenticate] == "Bearer realm=\"planmark\"")
            #expect(try await client.get("/drawings", headers: Self.bearer(ana)).status == .ok)
            #expect(try await client.get("/drawings", headers: [.authorization: "bearer " + ana]).status == .ok)
            #expect(try await client.get("/drawings", headers: Self.bearer(ana + "x")).status == .unauthorized)
            #expect(try await client.get("/drawings", headers: Self.bearer(String(ana.dropLast()))).status == .unauthorized)
            // The operator's token keeps working.
            #expect(try await client.get("/drawings", headers: Self.bearer("operator-token")).status == .ok)
            #expect(try await client.get("/me", headers: Self.bearer("operator-token")).object["operator"] as? Bool == true)

            // GET /me: the user and their roles.
            let me = try await client.get("/me", headers: Self.bearer(ana))
            #expect(me.status == .ok)
            let expected: String = #"{"name":"ana","email":"ana@example.com","company":"Tiles Ltd","projects":[{"name":"default","role":"inspector","permissions":"#
                + MePermissionsTests.inspector + #"}]}"# + "\n"
            #expect(me.text == expected)
            #expect(try await client.get("/me", headers: Self.bearer(bo)).object["projects"] as? [Any] != nil)
            #expect((try await client.get("/me", headers: Self.bearer(bo)).object["projects"] as? [Any])?.isEmpty == true)
        }
        // A token that signed a request in has been used.
        #expect(try await fixture.store.tokens(of: "ana").first?.lastUsedAt != nil)
        #expect(try await fixture.store.tokens(of: "bo").first?.lastUsedAt != nil)
    }

    @Test func theHistoryRecordsTheSignedInUser() async throws {
        let (fixture, ana, _) = try await Self.team()
        defer { fixture.remove() }
        // A manager, who may also delete (the role table: RoleTableTests).
        _ = try await fixture.store.grant(.manager, in: "default", to: "ana")
        let photo = try Data(contentsOf: URL(fileURLWithPath: ServerFixture.samplePlan))
        try await fixture.application().test(.router) { client in
            let post = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400,"note":"crack"}"#, headers: Self.bearer(ana))
            #expect(post.status == .created)
            let named = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":460,"y":400,"author":"ana"}"#, headers: Self.bearer(ana))
            #expect(named.status == .created)
            // Another name is refused, and nothing is stored or changed.
            let other = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":470,"y":400,"author":"bo"}"#, headers: Self.bearer(ana))
            #expect(other.status == .badRequest && other.errorCode == "author-mismatch")
            #expect(other.errorMessage == "author \"bo\" is not the signed-in user \"ana\"; leave author out")
            let patch = try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"note":"wide crack","author":"bo"}"#, headers: Self.bearer(ana))
            #expect(patch.errorCode == "author-mismatch")
            #expect(try await client.send(.patch, "/drawings/plan/markers/1", json: #"{"note":"wide crack"}"#, headers: Self.bearer(ana)).status == .ok)
            var headers = Self.bearer(ana)
            headers[.contentType] = "image/png"
            let refusedAttachment = try await client.execute(uri: "/drawings/plan/markers/1/attachments?author=bo", method: .post, headers: headers,
                                                            body: ByteBuffer(bytes: photo))
            #expect(refusedAttachment.errorCode == "author-mismatch")
            let attached = try await client.execute(uri: "/drawings/plan/markers/1/attachments", method: .post, headers: headers, body: ByteBuffer(bytes: photo))
            #expect(attached.status == .created)
            #expect(try await client.execute(uri: "/drawings/plan/markers/2?author=bo", method: .delete, headers: Self.bearer(ana)).errorCode
                    == "author-mismatch")
            #expect(try await client.execute(uri: "/drawings/plan/markers/2", method: .delete, headers: Self.bearer(ana)).status == .ok)
        }
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 1)
        #expect(try await fixture.store.marker(1, in: "plan").note == "wide crack")
        let history = try await fixture.store.history(of: "plan", number: nil)
        #expect(history.map(\.action) == [.created, .created, .edited, .attached, .removed])
        #expect(history.allSatisfy { $0.author == "ana" })
    }

    /// A uuid taken on a drawing the user cannot see is "stored already", without the drawing's name or the marker's
    /// number; the operator is told where.
    @Test func aTakenUUIDDoesNotNameAnotherProjectsDrawing() async throws {
        let (fixture, ana, _) = try await Self.team()
        defer { fixture.remove() }
        let regions = try RegionsFile.read(path: ServerFixture.sampleRegions)
        _ = try await fixture.store.addProject(named: "Elsewhere")
        _ = try await fixture.store.addDrawing(NewDrawing(name: "hidden", imagePath: ServerFixture.samplePlan, project: "Elsewhere"), regions: regions)
        let uuid = "0b7c6a52-8d1e-4f3a-9b2c-5d6e7f8a9b0c"
        _ = try await fixture.store.addMarker(to: "hidden", NewMarker(position: PixelPoint(x: 450, y: 400), uuid: MarkerUUID(text: uuid)), author: nil)
        try await fixture.application(token: "operator-token").test(.router) { client in
            let body = #"{"x":460,"y":400,"uuid":"\#(uuid)"}"#
            let user = try await client.send(.post, "/drawings/plan/markers", json: body, headers: Self.bearer(ana))
            #expect(user.status == .conflict && user.errorCode == "uuid-conflict")
            #expect(user.errorMessage == "uuid \(uuid) is stored already, with other content")
            let asOperator = try await client.send(.post, "/drawings/plan/markers", json: body, headers: Self.bearer("operator-token"))
            #expect(asOperator.status == .conflict && asOperator.errorMessage?.contains("\"hidden\"") == true)
        }
        #expect(try await fixture.store.drawing(named: "plan").markerCount == 0)
    }

    /// A revoked or expired token, or a removed user's, is refused on the next request: the store is read on every
    /// one (here through a second handle on the store file, as `planmark user revoke` in another process would).
    @Test func revokedExpiredAndRemovedAreRefusedAtOnce() async throws {
        let (fixture, ana, bo) = try await Self.team()
        defer { fixture.remove() }
        let other = try SQLiteStore(path: fixture.storePath, create: false)
        let cy = try await other.addUser(User(name: "cy", email: "cy@example.com", createdAt: .now()))
        let made = try await other.addToken(for: cy.name, label: nil, expires: nil)
        let lastDay = made.secret
        try await fixture.application().test(.router) { client in
            #expect(try await client.get("/drawings", headers: Self.bearer(ana)).status == .ok)
            #expect(try await client.get("/drawings", headers: Self.bearer(bo)).status == .ok)
            #expect(try await client.get("/drawings", headers: Self.bearer(lastDay)).status == .ok)

            _ = try await other.revokeTokens(nil, of: "ana")
            #expect(try await client.get("/drawings", headers: Self.bearer(ana)).status == .unauthorized)
            _ = try await other.removeUser(named: "bo")
            #expect(try await client.get("/drawings", headers: Self.bearer(bo)).status == .unauthorized)
            // Its last day was yesterday (the clock is not moved: the token's row is).
            _ = try await other.write(drawing: nil) { transaction, _ in
                try await transaction.update(StoreTables.token, set: [("expires", .text(Self.yesterday()))], where: [("id", .integer(made.token.id))])
            }
            #expect(try await client.get("/drawings", headers: Self.bearer(lastDay)).status == .unauthorized)
        }
    }

    /// Yesterday (UTC) as `YYYY-MM-DD`, by Foundation's calendar.
    static func yesterday() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: calendar.date(byAdding: .day, value: -1, to: Date())!)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// The service's throttle on a clock the test moves (a loaded machine takes its time over the requests; the minute
    /// is the test's, not the wall clock's).
    @Test func tenFailedSignInsFromOneAddressAre429UntilTheMinuteIsOver() async throws {
        let (fixture, ana, _) = try await Self.team()
        defer { fixture.remove() }
        let clock = ManualClock()
        let throttle = SignInThrottle(now: { clock.now })
        try await fixture.application(signInThrottle: throttle).test(.router) { client in
            for k in 0..<10 {
                #expect(try await client.get("/drawings", headers: Self.bearer("pmk_wrong\(k)")).status == .unauthorized, "\(k)")
            }
            // The eleventh request from that address is refused, with a good token too; /health is still answered.
            let refused = try await client.get("/drawings", headers: Self.bearer(ana))
            #expect(refused.status == .tooManyRequests && refused.errorCode == "too-many-sign-ins")
            #expect(refused.headers[.retryAfter] == "60")
            #expect(try await client.get("/health").status == .ok)
            clock.advance(.seconds(45))
            #expect(try await client.get("/drawings", headers: Self.bearer(ana)).headers[.retryAfter] == "15")
            // Once the minute is over, the good token signs in again.
            clock.advance(.seconds(15))
            #expect(try await client.get("/drawings", headers: Self.bearer(ana)).status == .ok)
        }
    }

    /// The window, with a clock the test moves: failures within a minute add up; after the minute the address starts
    /// again; other addresses are not affected.
    @Test func theThrottlesWindow() {
        let clock = ManualClock()
        let throttle = SignInThrottle(limit: 3, window: .seconds(60), capacity: 2, now: { clock.now })
        for _ in 0..<2 { throttle.failed("a") }
        #expect(throttle.retryAfter("a") == nil)
        clock.advance(.seconds(59))
        throttle.failed("a")
        #expect(throttle.retryAfter("a") == 1)
        #expect(throttle.retryAfter("b") == nil)
        clock.advance(.milliseconds(500))
        #expect(throttle.retryAfter("a") == 1)
        clock.advance(.milliseconds(500))
        #expect(throttle.retryAfter("a") == nil)
        // A new window: two failures are not enough.
        throttle.failed("a")
        throttle.failed("a")
        #expect(throttle.retryAfter("a") == nil)
        throttle.failed("a")
        #expect(throttle.retryAfter("a") == 60)
        // Full (capacity 2): a third address drops the oldest window (a's).
        clock.advance(.seconds(1))
        throttle.failed("b")
        clock.advance(.seconds(1))
        throttle.failed("c")
        #expect(throttle.retryAfter("a") == nil)
    }

    @Test func tokensAreNeverLogged() async throws {
        let (fixture, ana, _) = try await Self.team()
        defer { fixture.remove() }
        let recorder = LogRecorder()
        try await fixture.application(token: "operator-token", logger: recorder.logger(level: .trace)).test(.router) { client in
            _ = try await client.get("/drawings", headers: Self.bearer(ana))
            _ = try await client.get("/drawings/nope", headers: Self.bearer(ana))
            _ = try await client.get("/drawings", headers: Self.bearer("operator-token"))
            _ = try await client.get("/drawings", headers: Self.bearer("pmk_not-a-token"))
            _ = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400,"author":"bo"}"#, headers: Self.bearer(ana))
        }
        #expect(!recorder.all.isEmpty)
        for line in recorder.all {
            #expect(!line.contains(String(ana.dropFirst(4))) && !line.contains("operator-token") && !line.contains("not-a-token"), "\(line)")
        }
    }
}

/// A clock a test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var instant = ContinuousClock.now
    var now: ContinuousClock.Instant { lock.withLock { instant } }
    func advance(_ duration: Duration) { lock.withLock { instant = instant + duration } }
}
