import Foundation
import PlanMarkBCF
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PlanMarkTestSupport
import Testing

/// Text XML carries awkwardly: carriage returns and tabs in elements, line feeds in attributes, markup characters, and
/// control characters XML 1.0 cannot hold at all (written as U+FFFD). bcf-client and PlanMark's own reader both get back
/// what was stored.
@Suite(.serialized) struct BCFTextTests {
    static let note = "Wet\r\nfloor\tby the door \u{1} & <b>\"x\"</b> 'y' ]]>"
    static let written = "Wet\r\nfloor\tby the door \u{FFFD} & <b>\"x\"</b> 'y' ]]>"
    static let category = "Floor\nwet & <dry>"

    @Test(arguments: BCFVersion.allCases)
    func awkwardTextComesBackAsStored(version: BCFVersion) async throws {
        let fixture = try await BCFFixture.make(.sqlite)
        _ = try await fixture.store.addMarker(to: fixture.drawing, NewMarker(position: PixelPoint(x: 800, y: 700), note: Self.note,
                                                                             category: Self.category), author: "ana")
        _ = try await fixture.store.comment("  leading and trailing spaces  ", onMarker: 4, in: fixture.drawing, author: "ana")
        var filter = MarkerFilter()
        filter.category = Self.category
        let bytes = try await BCFExport(version: version).file(from: fixture.store, drawing: fixture.drawing, filter: filter).zip(date: Date())
        // PlanMark's own reader.
        let topic = try #require(try BCFArchive(reading: bytes).topics.first)
        #expect(topic.description == Self.written)
        #expect(topic.type == Self.category)
        #expect(topic.title == "#4 Wet")
        #expect(topic.comments.map(\.text) == ["  leading and trailing spaces  "])
        // bcf-client's.
        guard Oracle.available else { return }
        let path = fixture.folder.appendingPathComponent("text-\(version.rawValue).bcf").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let read = try #require(try Oracle.json(["read", path]) as? [String: Any])
        let topics = try #require(read["topics"] as? [[String: Any]])
        #expect(topics.count == 1)
        #expect(topics.first?["description"] as? String == Self.written)
        #expect(topics.first?["type"] as? String == Self.category)
        #expect((topics.first?["comments"] as? [[String: Any]])?.first?["text"] as? String == "  leading and trailing spaces  ")
    }
}
