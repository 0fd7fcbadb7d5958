import Foundation
import PlanMarkBCF
import PlanMarkFormats
import PlanMarkStore
import PlanMarkTestSupport
import Testing

/// PlanMark's BCF 2.1 and 3.0 files read by IfcOpenShell's bcf-client, an independent reader: every topic, every field,
/// every comment and every snapshot come back as the fixture typed them (`BCFFixture`), and the 2.1 file keeps
/// Procore's rules for an import.
@Suite(.serialized) struct BCFReaderOracleTests {
    /// `time` as bcf-client gives back what PlanMark wrote (`Timestamp.text`, always with milliseconds): its reader
    /// (xsdata's `XmlDateTime`) prints a whole second without the fraction, `...:06Z` for `...:06.000Z`.
    static func asRead(_ time: Timestamp) -> String {
        time.milliseconds % 1000 == 0 ? String(time.text.dropLast(5)) + "Z" : time.text
    }

    /// The file `version` of the fixture's store, written to disk, and what bcf-client reads in it.
    static func exported(_ fixture: BCFFixture, _ version: BCFVersion, baseURL: String? = nil, filter: MarkerFilter = MarkerFilter())
        async throws -> [String: Any] {
        let file = try await BCFExport(version: version, baseURL: baseURL).file(from: fixture.store, drawing: fixture.drawing, filter: filter)
        let path = fixture.folder.appendingPathComponent("export-\(version.rawValue).bcf").path
        try Data(try file.zip(date: Date())).write(to: URL(fileURLWithPath: path))
        return try Oracle.json(["read", path]) as! [String: Any]
    }

    @Test(arguments: StoreKind.kinds, BCFVersion.allCases)
    func everyTopicFieldCommentAndSnapshotComesBack(kind: StoreKind, version: BCFVersion) async throws {
        guard Oracle.available else { return }
        let fixture = try await BCFFixture.make(kind)
        let read = try await Self.exported(fixture, version, baseURL: version == .v3_0 ? "https://pm.example/" : nil)
        #expect(read["version"] as? String == version.rawValue)
        #expect(read["project"] as? String == "Level 2")
        let topics = try #require(read["topics"] as? [[String: Any]])
        #expect(topics.count == 3)
        let markers = try await fixture.markers()
        let history = [1: try await fixture.store.history(of: fixture.drawing, number: 1),
                       3: try await fixture.store.history(of: fixture.drawing, number: 3)]
        let comments = try await fixture.store.comments(ofMarker: 1, in: fixture.drawing)
        let byIndex = Dictionary(uniqueKeysWithValues: topics.map { ($0["index"] as! Int, $0) })

        // Marker 1: every field; its thread is the two status changes and kim's comment, oldest first.
        let one = try #require(byIndex[1])
        #expect(one["guid"] as? String == markers[0].uuid.text)
        #expect(one["folder"] as? String == markers[0].uuid.text)
        #expect(one["title"] as? String == "#1 Crack in the screed")
        #expect(one["status"] as? String == "open")
        #expect(one["type"] as? String == "Floor")
        #expect(one["priority"] as? String == "high")
        #expect(one["labels"] as? [String] == ["2.01"])
        #expect(one["creationDate"] as? String == Self.asRead(markers[0].createdAt))
        #expect(one["creationAuthor"] as? String == "ana@build.example")
        // The last change is kim's comment.
        #expect(one["modifiedDate"] as? String == Self.asRead(comments[0].createdAt))
        #expect(one["modifiedAuthor"] as? String == "kim@acme.example")
        #expect(one["dueDate"] as? String == "2026-12-24T00:00:00Z")
        #expect(one["assignedTo"] as? String == "kim@acme.example")
        #expect(one["description"] as? String == BCFFixture.note1)
        let thread = try #require(one["comments"] as? [[String: Any]])
        #expect(thread.map { $0["author"] as? String } == ["kim@acme.example", "ana@build.example", "kim@acme.example"])
        #expect(thread.map { $0["text"] as? String } == [
            "Status: Open → Ready for inspection.", "Status: Ready for inspection → Open. Reason: still cracked", "Grout missing too.\nSee photo.",
        ])
        let statusTimes = history[1]!.filter { $0.action == .status || $0.action == .reopened }.map { Self.asRead($0.at) }
        #expect(thread.map { $0["date"] as? String } == statusTimes + [Self.asRead(comments[0].createdAt)])
        #expect(Set(thread.compactMap { $0["guid"] as? String }).count == 3)
        let references = try #require(one["documentReferences"] as? [[String: Any]])
        #expect(references.count == 1)
        #expect(references.first?["description"] as? String == "Drawing \"Level 2\", revision 1")
        #expect(references.first?["url"] as? String == (version == .v3_0 ? "https://pm.example/#/Level%202/1" : "drawings/Level%202?revision=1"))
        // The snapshot: the sheet within 200 px of (150, 100), cut at the sheet's top left edges: 350 x 300.
        let viewpoints = try #require(one["viewpoints"] as? [[String: Any]])
        #expect(viewpoints.count == 1)
        let snapshot = try #require(viewpoints.first?["snapshot"] as? [String: Any])
        #expect(snapshot["png"] as? Bool == true && snapshot["decodes"] as? Bool == true)
        #expect(snapshot["width"] as? Int == 350 && snapshot["height"] as? Int == 300)
        // The placement, which bcf-client reads as the topic's BIM snippet.
        #expect(one["snippetType"] as? String == "PlanMarkPlacement")
        let snippet = try #require(one["snippet"] as? [String: Any])
        #expect(snippet["drawing"] as? String == "Level 2")
        #expect(snippet["revision"] as? Int == 1)
        #expect(snippet["x"] as? Double == 150 && snippet["y"] as? Double == 100)
        #expect(snippet["number"] as? Int == 1)
        #expect(snippet["people"] as? [String: String] == ["ana@build.example": "ana", "kim@acme.example": "kim"])
        #expect(snippet["statusComments"] as? [String] == Array(thread.prefix(2).compactMap { $0["guid"] as? String }))

        // Marker 2: an author who is not a user, a company as assignee, no thread; a 400 x 400 snapshot.
        let two = try #require(byIndex[2])
        #expect(two["title"] as? String == "#2 " + BCFFixture.note2)
        #expect(two["type"] as? String == "Paint" && two["priority"] as? String == "low")
        #expect(two["labels"] as? [String] == ["2.02"])
        #expect(two["creationAuthor"] as? String == "bob")
        #expect(two["modifiedDate"] is NSNull && two["modifiedAuthor"] is NSNull)
        #expect(two["assignedTo"] as? String == "Acme")
        #expect(two["dueDate"] as? String == "2027-01-05T00:00:00Z")
        #expect(two["description"] as? String == BCFFixture.note2)
        #expect((two["comments"] as? [Any])?.isEmpty == true)
        let twoShot = try #require((two["viewpoints"] as? [[String: Any]])?.first?["snapshot"] as? [String: Any])
        #expect(twoShot["width"] as? Int == 400 && twoShot["height"] as? Int == 400 && twoShot["decodes"] as? Bool == true)

        // Marker 3: on the wall (both rooms, in region order), no note or category, no author, closed by ana.
        let three = try #require(byIndex[3])
        #expect(three["title"] as? String == "#3")
        #expect(three["status"] as? String == "closed" && three["priority"] as? String == "normal")
        #expect(three["labels"] as? [String] == ["2.01", "2.02"])
        #expect(three["type"] as? String == (version == .v3_0 ? "Issue" : nil))
        #expect(three["description"] is NSNull)
        #expect(three["creationAuthor"] as? String == "unknown@planmark.invalid")
        #expect(three["modifiedAuthor"] as? String == "ana@build.example")
        #expect(three["modifiedDate"] as? String == Self.asRead(history[3]!.last!.at))
        #expect((three["comments"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Status: Open → Closed."])
        #expect(((three["snippet"] as? [String: Any])?["untyped"] as? Bool ?? false) == (version == .v3_0))
    }

    /// Procore imports BCF 2.1 files whose topics each have a Guid, a Title, a CreationDate, a CreationAuthor that is an
    /// e-mail address, and at least one snapshot or viewpoint. Markers 1 and 3 (placed by a user, or by nobody known).
    @Test(arguments: StoreKind.kinds)
    func theBCF21FileKeepsProcoresRules(kind: StoreKind) async throws {
        guard Oracle.available else { return }
        let fixture = try await BCFFixture.make(kind)
        var filter = MarkerFilter()
        filter.priorities = [.high, .normal]
        let read = try await Self.exported(fixture, .v2_1, filter: filter)
        #expect(read["version"] as? String == "2.1")
        let topics = try #require(read["topics"] as? [[String: Any]])
        #expect(topics.map { $0["index"] as? Int }.sorted { ($0 ?? 0) < ($1 ?? 0) } == [1, 3])
        let email = /^[^@\s]+@[^@\s]+\.[^@\s]+$/
        let guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
        for topic in topics {
            #expect((topic["guid"] as? String).map { $0.wholeMatch(of: guid) != nil } == true)
            #expect((topic["title"] as? String)?.isEmpty == false)
            #expect((topic["creationDate"] as? String).flatMap { ISO8601DateFormatter.withFractions.date(from: $0) } != nil)
            #expect((topic["creationAuthor"] as? String).map { $0.wholeMatch(of: email) != nil } == true)
            let viewpoints = topic["viewpoints"] as? [[String: Any]] ?? []
            #expect(!viewpoints.isEmpty)
            #expect(viewpoints.contains { ($0["snapshot"] as? [String: Any])?["decodes"] as? Bool == true })
        }
    }
}

extension ISO8601DateFormatter {
    /// `2026-11-28T03:27:46.447Z`.
    nonisolated(unsafe) static let withFractions: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
