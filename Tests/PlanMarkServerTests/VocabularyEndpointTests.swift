import Foundation
import Hummingbird
import PlanMarkTestSupport
import Testing
@testable import PlanMarkServer

/// `GET /vocabulary`: the workflow's words, signs and colours, which the review page reads instead of keeping a copy.
/// Expected values written out by hand: the workflow from docs/punch-items.md (`WorkflowTable`), the words, glyphs and
/// colours from docs/review-page.md and docs/render.md.
@Suite struct VocabularyEndpointTests {
    static let titles = ["open": "Open", "in-progress": "In progress", "ready": "Ready for inspection", "closed": "Closed", "void": "Void"]
    static let glyphs = ["open": "○", "in-progress": "◐", "ready": "●", "closed": "✓", "void": "✕"]
    static let colours = ["open": "#0072B2", "in-progress": "#AA4499", "ready": "#009E73", "closed": "#4B5563", "void": "#A8AEB8"]
    /// Dark ink only on the light grey of void.
    static let inks = ["open": "#FFFFFF", "in-progress": "#FFFFFF", "ready": "#FFFFFF", "closed": "#FFFFFF", "void": "#111827"]
    /// The trade's work: open -> in-progress -> ready.
    static let advancing: Set<String> = ["open>in-progress", "open>ready", "in-progress>ready"]
    static let actions = ["in-progress": "Start work", "ready": "Ready for inspection", "closed": "Resolve", "void": "Void"]

    @Test func theVocabularyIsTheWorkflowAndAnyoneMayReadIt() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        // A server with a token: the vocabulary is read before anyone signs in, as /health is.
        try await fixture.application(token: "secret").test(.router) { client in
            let response = try await client.get("/vocabulary")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let vocabulary = response.object
            let statuses = try #require(vocabulary["statuses"] as? [[String: Any]])
            #expect(statuses.map { $0["name"] as? String } == WorkflowTable.statuses)
            for status in statuses {
                let name = status["name"] as! String
                #expect(status["title"] as? String == Self.titles[name])
                #expect(status["glyph"] as? String == Self.glyphs[name])
                #expect(status["colour"] as? String == Self.colours[name])
                #expect(status["ink"] as? String == Self.inks[name])
                #expect(status["active"] as? Bool == (name != "closed" && name != "void"))
                let next = try #require(status["next"] as? [[String: Any]])
                #expect(Set(next.compactMap { $0["to"] as? String }) == WorkflowTable.allowed[name], "\(name)")
                for change in next {
                    let to = change["to"] as! String
                    #expect(change["needsReason"] as? Bool == (name == "ready" && to == "open"), "\(name) -> \(to)")
                    #expect(change["advances"] as? Bool == Self.advancing.contains("\(name)>\(to)"), "\(name) -> \(to)")
                    let action = to == "open" ? (name == "ready" ? "Reject (reopen)" : "Reopen") : Self.actions[to]
                    #expect(change["action"] as? String == action, "\(name) -> \(to)")
                }
            }
            #expect(vocabulary["priorities"] as? [String] == ["low", "normal", "high", "critical"])
            #expect(vocabulary["overdue"] as? [String: String] == ["glyph": "!", "colour": "#E11D48"])
            #expect(vocabulary["formerly"] as? [String: String] == ["resolved": "closed"])
            // Everything else still needs the token.
            #expect(try await client.get("/drawings").status == .unauthorized)
        }
    }

    /// The statuses' colours reach the page as a style sheet the server makes from the same definition.
    @Test func thePageStyleSheetIsMadeFromTheVocabulary() async throws {
        let fixture = try await ServerFixture()
        let folders = try ReviewPageServingTests.PageFolders()
        defer { fixture.remove(); folders.remove() }
        let page = try ReviewPageFiles(webRoot: folders.web, leafletDirectory: folders.leaflet, markerClusterDirectory: folders.markerCluster)
        try await ReviewPageServingTests().application(fixture, page: page, token: "secret").test(.router) { client in
            let response = try await client.get("/app/vocabulary.css")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/css; charset=utf-8")
            let lines = Set(response.text.split(separator: "\n").map(String.init))
            for name in WorkflowTable.statuses {
                #expect(lines.contains(".pin-\(name), .swatch-\(name) { background: \(Self.colours[name]!); color: \(Self.inks[name]!); }"), "\(name)")
            }
            #expect(lines.contains(":root { --overdue: #E11D48; }"))
        }
    }
}
