import Foundation
import HTTPTypes
import Hummingbird
import PlanMarkGeometry
import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// A marker's version over HTTP (issue 26, item 4): its `ETag`, and `If-Match` on PATCH and DELETE: a stale version is
/// 412 `version-conflict` with the marker as stored and nothing changed; the current one is applied.
@Suite struct IfMatchTests {
    static let path = "/drawings/plan/markers/1"

    @Test func versionsAndConflicts() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let created = try await client.send(.post, "/drawings/plan/markers", json: #"{"x":450,"y":400,"note":"crack"}"#)
            #expect(created.status == .created && created.headers[.eTag] == "\"1\"" && created.object["version"] as? Int == 1)
            let read = try await client.get(Self.path)
            #expect(read.headers[.eTag] == "\"1\"" && read.object["version"] as? Int == 1)

            // Two clients read version 1; the first one's change goes through and makes version 2.
            let first = try await client.send(.patch, Self.path, json: #"{"status":"in-progress"}"#, headers: [.ifMatch: "\"1\""])
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.headers[.eTag] == "\"2\"" && first.object["version"] as? Int == 2)
            // The second one's is refused, with the marker as stored, and changes nothing.
            let historyBefore = try await fixture.store.history(of: "plan", number: 1).count
            let second = try await client.send(.patch, Self.path, json: #"{"note":"from the old copy"}"#, headers: [.ifMatch: "\"1\""])
            #expect(second.status == .preconditionFailed, "\(second.text)")
            #expect(second.errorCode == "version-conflict" && second.headers[.eTag] == "\"2\"")
            let current = try #require(second.object["marker"] as? [String: Any])
            #expect(current["version"] as? Int == 2 && current["status"] as? String == "in-progress" && current["note"] as? String == "crack")
            let stored = try await fixture.store.marker(1, in: "plan")
            #expect(stored.note == "crack" && stored.version == 2)
            #expect(try await fixture.store.history(of: "plan", number: 1).count == historyBefore)

            // A weak tag never matches (strong comparison); * and no header let the last write win; two tags are 400.
            let weak = try await client.send(.patch, Self.path, json: #"{"note":"weak"}"#, headers: [.ifMatch: "W/\"2\""])
            #expect(weak.status == .preconditionFailed)
            let star = try await client.send(.patch, Self.path, json: #"{"note":"any"}"#, headers: [.ifMatch: "*"])
            #expect(star.status == .ok && star.object["version"] as? Int == 3)
            let two = try await client.send(.patch, Self.path, json: #"{"note":"two"}"#, headers: [.ifMatch: "\"3\", \"4\""])
            #expect(two.status == .badRequest)
            let plain = try await client.send(.patch, Self.path, json: #"{"note":"plain"}"#)
            #expect(plain.status == .ok && plain.headers[.eTag] == "\"4\"")

            // DELETE: a stale version keeps the marker; the current one removes it.
            let staleDelete = try await client.execute(uri: Self.path, method: .delete, headers: [.ifMatch: "\"3\""])
            #expect(staleDelete.status == .preconditionFailed && staleDelete.errorCode == "version-conflict")
            #expect(try await fixture.store.marker(1, in: "plan").note == "plain")
            let delete = try await client.execute(uri: Self.path, method: .delete, headers: [.ifMatch: "\"4\""])
            #expect(delete.status == .ok, "\(delete.text)")
            #expect(try await client.get(Self.path).status == .notFound)
        }
    }
}

/// `Idempotency-Key` over HTTP (issue 26, item 4): the same request again is answered the first answer (with
/// `Idempotent-Replayed: true`) and changes nothing, concurrent ones too; another request under the key is 422.
@Suite struct IdempotencyKeyTests {
    static let comments = "/drawings/plan/markers/1/comments"

    @Test func repliesAreKeptAndReplayed() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        _ = try await fixture.store.addMarker(to: "plan", at: PixelPoint(x: 450, y: 400), note: nil, author: nil)
        let key = HTTPField.Name("Idempotency-Key")!, replayed = HTTPField.Name("Idempotent-Replayed")!
        try await fixture.application().test(.router) { client in
            // Eight clients send one comment under one key at once: one comment, eight identical answers.
            let answers = try await withThrowingTaskGroup(of: (Int, String, String?).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let answer = try await client.send(.post, Self.comments, json: #"{"text":"once"}"#, headers: [key: "c-1"])
                        return (Int(answer.status.code), answer.text, answer.headers[replayed])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(answers.map(\.0)) == [201] && Set(answers.map(\.1)).count == 1, "\(answers)")
            #expect(answers.filter { $0.2 == "true" }.count == 7)
            #expect(try await fixture.store.comments(ofMarker: 1, in: "plan").map(\.text) == ["once"])
            // The key with another body: 422, nothing stored.
            let reused = try await client.send(.post, Self.comments, json: #"{"text":"twice"}"#, headers: [key: "c-1"])
            #expect(reused.status == .unprocessableContent && reused.errorCode == "idempotency-key-reused", "\(reused.text)")
            #expect(try await fixture.store.comments(ofMarker: 1, in: "plan").count == 1)
            // A bad key is 400.
            let bad = try await client.send(.post, Self.comments, json: #"{"text":"x"}"#, headers: [key: "has space"])
            #expect(bad.status == .badRequest)

            // A PATCH made, its answer lost, sent again: the first answer, though the version has moved on since.
            let version = try await fixture.store.marker(1, in: "plan").version
            let patch = #"{"status":"in-progress"}"#
            let first = try await client.send(.patch, "/drawings/plan/markers/1", json: patch, headers: [key: "p-1", .ifMatch: "\"\(version)\""])
            #expect(first.status == .ok && first.headers[replayed] == nil, "\(first.text)")
            let again = try await client.send(.patch, "/drawings/plan/markers/1", json: patch, headers: [key: "p-1", .ifMatch: "\"\(version)\""])
            #expect(again.status == .ok && again.text == first.text && again.headers[.eTag] == first.headers[.eTag])
            #expect(again.headers[replayed] == "true")
            #expect(try await fixture.store.marker(1, in: "plan").version == version + 1)

            // DELETE twice under a key: both answers are the first one's.
            let removed = try await client.execute(uri: "/drawings/plan/markers/1", method: .delete, headers: [key: "d-1"])
            let removedAgain = try await client.execute(uri: "/drawings/plan/markers/1", method: .delete, headers: [key: "d-1"])
            #expect(removed.status == .ok && removedAgain.status == .ok && removedAgain.text == removed.text)
            let without = try await client.execute(uri: "/drawings/plan/markers/1", method: .delete)
            #expect(without.status == .notFound)
        }
    }
}
