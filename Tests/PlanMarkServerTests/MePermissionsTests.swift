import Foundation
import Hummingbird
@testable import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// `GET /me` gives, for each of the user's projects, what their role there may do (`permissions`, by action code), so
/// that a client such as the review page need not copy the role table. The expected values are the issue's table
/// written out here by hand, not read from `ProjectRole.permission`.
@Suite struct MePermissionsTests {
    /// The permissions of each role as the issue's table gives them, in the answer's (sorted) key order.
    static let subcontractor = #"{"advance-status":"on-their-markers","bulk-update":"never","comment-or-attach":"on-their-markers","#
        + #""delete-marker":"never","edit-marker":"never","manage-drawings":"never","place-marker":"never","read-drawings":"always","#
        + #""read-markers":"on-their-markers","verify-status":"never"}"#
    static let inspector = #"{"advance-status":"always","bulk-update":"never","comment-or-attach":"always","delete-marker":"never","#
        + #""edit-marker":"always","manage-drawings":"never","place-marker":"always","read-drawings":"always","read-markers":"always","#
        + #""verify-status":"never"}"#
    static let manager = #"{"advance-status":"always","bulk-update":"always","comment-or-attach":"always","delete-marker":"always","#
        + #""edit-marker":"always","manage-drawings":"never","place-marker":"always","read-drawings":"always","read-markers":"always","#
        + #""verify-status":"always"}"#
    static let viewer = #"{"advance-status":"never","bulk-update":"never","comment-or-attach":"never","delete-marker":"never","#
        + #""edit-marker":"never","manage-drawings":"never","place-marker":"never","read-drawings":"always","read-markers":"always","#
        + #""verify-status":"never"}"#

    @Test func meGivesEachProjectsPermissions() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let store = fixture.store
        _ = try await store.addProject(named: "Annex")
        _ = try await store.addProject(named: "Tower")
        _ = try await store.addUser(User(name: "sam", email: "sam@acme.example", company: "Acme", createdAt: .now()))
        _ = try await store.addUser(User(name: "ana", email: "ana@example.com", createdAt: .now()))
        _ = try await store.grant(.subcontractor, in: "default", to: "sam")
        _ = try await store.grant(.viewer, in: "Tower", to: "sam")
        _ = try await store.grant(.inspector, in: "default", to: "ana")
        _ = try await store.grant(.manager, in: "Annex", to: "ana")
        let sam = try await store.addToken(for: "sam", label: nil, expires: nil).secret
        let ana = try await store.addToken(for: "ana", label: nil, expires: nil).secret
        try await fixture.application(token: "operator-token").test(.router) { client in
            let samMe = try await client.get("/me", headers: [.authorization: "Bearer " + sam])
            #expect(samMe.status == .ok)
            let samProjects: String = #"[{"name":"Tower","role":"viewer","permissions":"# + Self.viewer + #"},"#
                + #"{"name":"default","role":"subcontractor","permissions":"# + Self.subcontractor + #"}]"#
            let samExpected: String = #"{"name":"sam","email":"sam@acme.example","company":"Acme","projects":"# + samProjects + "}\n"
            #expect(samMe.text == samExpected)
            let anaMe = try await client.get("/me", headers: [.authorization: "Bearer " + ana])
            let anaProjects: String = #"[{"name":"Annex","role":"manager","permissions":"# + Self.manager + #"},"#
                + #"{"name":"default","role":"inspector","permissions":"# + Self.inspector + #"}]"#
            let anaExpected: String = #"{"name":"ana","email":"ana@example.com","company":null,"projects":"# + anaProjects + "}\n"
            #expect(anaMe.text == anaExpected)
            // The operator has no projects: "operator": true means everything is allowed.
            let operatorMe = try await client.get("/me", headers: [.authorization: "Bearer operator-token"])
            #expect(operatorMe.text == #"{"name":null,"email":null,"company":null,"projects":[],"operator":true}"# + "\n")
        }
    }
}
