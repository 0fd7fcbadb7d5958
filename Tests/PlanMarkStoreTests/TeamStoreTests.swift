import Foundation
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkTestSupport
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// Users, tokens, projects and roles (`StoreBackend+Team.swift`), the same on every back end.
@Suite struct TeamStoreTests {
    static let ana = User(name: "ana", email: "ana@example.com", company: "Tiles Ltd", createdAt: Timestamp(milliseconds: 1_764_000_000_000))
    static let bo = User(name: "bo", email: "bo@example.org", createdAt: Timestamp(milliseconds: 1_764_000_000_500))

    @Test(arguments: StoreFixtures.kinds) func usersAreAddedListedAndRemoved(kind: StoreKind) async throws {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        #expect(try await store.users().isEmpty)
        #expect(try await store.addUser(Self.bo) == Self.bo)
        #expect(try await store.addUser(Self.ana) == Self.ana)
        await #expect(throws: StoreError.duplicateUser("ana")) {
            try await store.addUser(User(name: "ana", email: "other@example.com", createdAt: .now()))
        }
        // By name, every field as given (the company absent for bo).
        #expect(try await store.users() == [Self.ana, Self.bo])
        #expect(try await StoreFixtures.reopen(store).user(named: "ana") == Self.ana)
        await #expect(throws: StoreError.unknownUser("cy")) { try await store.user(named: "cy") }
        // Addresses a mail client would not take, and names that are not names.
        for email in ["ana", "@example.com", "ana@localhost", "ana@example.", "a b@example.com", "a@b@example.com"] {
            await #expect(throws: StoreError.self, "\(email)") { try await store.addUser(User(name: "x", email: email, createdAt: .now())) }
        }
        await #expect(throws: StoreError.invalidText(field: "user name", problem: "is empty")) {
            try await store.addUser(User(name: "", email: "x@example.com", createdAt: .now()))
        }
        #expect(try await store.users().map(\.name) == ["ana", "bo"])

        // Removing a user takes their tokens and roles; their history stays under their name.
        _ = try await store.addToken(for: "ana", label: nil, expires: nil)
        _ = try await store.grant(.inspector, in: "default", to: "ana")
        let marker = try await store.addMarker(to: "A", at: PixelPoint(x: 100, y: 100), note: "crack", author: "ana")
        #expect(try await store.removeUser(named: "ana") == Self.ana)
        #expect(try await store.users() == [Self.bo])
        #expect(try await store.members(of: "default").isEmpty)
        #expect(try await StoreFixtures.int(store, "SELECT count(*) FROM token") == 0)
        #expect(try await store.history(of: "A", number: marker.number).map(\.author) == ["ana"])
        await #expect(throws: StoreError.unknownUser("ana")) { try await store.removeUser(named: "ana") }
        // The name can be given again (to a new account, which has nothing of the old one's).
        _ = try await store.addUser(Self.ana)
        #expect(try await store.tokens(of: "ana").isEmpty)
    }

    /// The token's text, its form and what the store keeps of it, each checked against an independent reading:
    /// Foundation's base64 decoder for the 32 random bytes, the system's sha256sum for the digest.
    @Test(arguments: StoreFixtures.kinds) func aTokenIsShownOnceAndStoredAsItsSHA256(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addUser(Self.ana)
        let today = DueDate(text: "2026-11-25")!
        let now = Timestamp(milliseconds: 1_764_072_000_000)
        let made = try await store.addToken(for: "ana", label: "phone", expires: DueDate(text: "2027-01-31"), today: today, at: now)
        #expect(made.secret.hasPrefix("pmk_"))
        #expect(made.secret.utf8.count == 4 + 43)
        let body = made.secret.dropFirst(4).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "="
        #expect(Data(base64Encoded: body)?.count == 32)
        #expect(made.token == UserToken(id: made.token.id, user: "ana", label: "phone", createdAt: now, expires: DueDate(text: "2027-01-31"),
                                        lastUsedAt: nil))
        #expect(try await StoreFixtures.texts(store, "SELECT sha256 FROM token") == [sha256sum(Array(made.secret.utf8))])
        // The token itself is nowhere in the store.
        if kind == .sqlite {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasPrefix("store.sqlite") {
                let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
                #expect(bytes.range(of: Data(made.secret.dropFirst(4).utf8)) == nil, "\(name)")
            }
        }
        #expect(try await StoreFixtures.texts(store, "SELECT label || ' ' || expires FROM token") == ["phone 2027-01-31"])

        // Two tokens are never the same (2^256 values).
        let second = try await store.addToken(for: "ana", label: nil, expires: today, today: today, at: now)
        #expect(second.secret != made.secret && second.token.id != made.token.id)
        #expect(try await store.tokens(of: "ana").map(\.id) == [made.token.id, second.token.id])
        // An expiry before today is refused; one of today is the last day it works.
        await #expect(throws: StoreError.invalidArgument("user \"ana\": the expiry date 2026-11-24 is in the past (today is 2026-11-25)")) {
            try await store.addToken(for: "ana", label: nil, expires: DueDate(text: "2026-11-24"), today: today, at: now)
        }
        #expect(second.token.hasExpired(today: today) == false)
        #expect(second.token.hasExpired(today: DueDate(text: "2026-11-26")!) == true)
        #expect(made.token.hasExpired(today: DueDate(text: "2027-01-31")!) == false)
        await #expect(throws: StoreError.unknownUser("cy")) { try await store.addToken(for: "cy", label: nil, expires: nil) }
        #expect(try await StoreFixtures.int(store, "SELECT count(*) FROM token") == 2)

        // Revoked one by one, then all; an id that is not the user's is unknown.
        _ = try await store.addUser(Self.bo)
        let bos = try await store.addToken(for: "bo", label: nil, expires: nil)
        await #expect(throws: StoreError.unknownToken(user: "ana", id: bos.token.id)) { try await store.revokeTokens(bos.token.id, of: "ana") }
        #expect(try await store.revokeTokens(made.token.id, of: "ana").map(\.id) == [made.token.id])
        #expect(try await store.tokens(of: "ana").map(\.id) == [second.token.id])
        let third = try await store.addToken(for: "ana", label: "laptop", expires: nil)
        #expect(try await store.revokeTokens(nil, of: "ana").map(\.id) == [second.token.id, third.token.id])
        #expect(try await store.tokens(of: "ana").isEmpty)
        #expect(try await store.tokens(of: "bo").map(\.id) == [bos.token.id])
    }

    @Test(arguments: StoreFixtures.kinds) func projectsAndRoles(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        // Every store has the project "default", and drawings made without a project are in it.
        #expect(try await store.projects().map(\.name) == ["default"])
        #expect(try await store.drawing(named: "A").project == "default")
        let site = try await store.addProject(named: "Tower B", at: Timestamp(milliseconds: 1_764_000_000_000))
        #expect(site == Project(name: "Tower B", createdAt: Timestamp(milliseconds: 1_764_000_000_000)))
        await #expect(throws: StoreError.duplicateProject("Tower B")) { try await store.addProject(named: "Tower B") }
        await #expect(throws: StoreError.duplicateProject("default")) { try await store.addProject(named: "default") }
        #expect(try await store.projects().map(\.name) == ["Tower B", "default"])

        _ = try await store.addUser(Self.ana)
        _ = try await store.addUser(Self.bo)
        #expect(try await store.grant(.subcontractor, in: "Tower B", to: "ana") == ProjectMember(project: "Tower B", user: "ana", role: .subcontractor))
        _ = try await store.grant(.viewer, in: "Tower B", to: "bo")
        _ = try await store.grant(.admin, in: "default", to: "bo")
        // A second grant replaces the role.
        _ = try await store.grant(.manager, in: "Tower B", to: "bo")
        #expect(try await store.members(of: "Tower B") == [ProjectMember(project: "Tower B", user: "ana", role: .subcontractor),
                                                           ProjectMember(project: "Tower B", user: "bo", role: .manager)])
        #expect(try await store.members(of: "default") == [ProjectMember(project: "default", user: "bo", role: .admin)])
        await #expect(throws: StoreError.unknownProject("Tower C")) { try await store.grant(.viewer, in: "Tower C", to: "ana") }
        await #expect(throws: StoreError.unknownUser("cy")) { try await store.grant(.viewer, in: "Tower B", to: "cy") }
        await #expect(throws: StoreError.unknownProject("Tower C")) { try await store.members(of: "Tower C") }

        #expect(try await store.revoke("ana", from: "Tower B") == ProjectMember(project: "Tower B", user: "ana", role: .subcontractor))
        await #expect(throws: StoreError.notAMember(project: "Tower B", user: "ana")) { try await store.revoke("ana", from: "Tower B") }
        #expect(try await store.members(of: "Tower B").map(\.user) == ["bo"])
        // The schema takes only the five roles.
        await #expect(throws: (any Error).self) {
            try await StoreFixtures.execute(store, "UPDATE member SET role = 'owner'")
        }

        // A drawing belongs to the project it was added to; an unknown project adds nothing.
        _ = try await store.addDrawing(NewDrawing(name: "B", imagePath: try StoreFixtures.png(in: folder), project: "Tower B"), regions: [])
        #expect(try await store.drawing(named: "B").project == "Tower B")
        #expect(try await store.drawings().map(\.project) == ["default", "Tower B"])
        await #expect(throws: StoreError.unknownProject("Tower C")) {
            try await store.addDrawing(NewDrawing(name: "C", imagePath: try StoreFixtures.png(in: folder), project: "Tower C"), regions: [])
        }
        #expect(try await store.drawings().map(\.drawing.name) == ["A", "B"])
    }
}
