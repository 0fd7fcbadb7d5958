import Foundation
import PlanMarkBCF
import PlanMarkTestSupport
import Testing

/// Files that must be refused before anything is stored, each with its named error: not a zip, no bcf.version, a zip
/// bomb, a header that lies about its size, paths that leave the zip's folder, XML with an external entity or entity
/// expansion, XML that is not UTF-8. Python's zipfile writes them (bcf_oracle.py hostile).
@Suite struct BCFHostileFileTests {
    static let expected: [(file: String, code: String, words: String)] = [
        ("not-a-zip.bcf", "not-bcf", "not a zip file"),
        ("no-version.bcf", "not-bcf", "no bcf.version"),
        ("bomb.bcf", "bcf-too-large", "inflates to 83886080 bytes"),
        ("liar.bcf", "bcf-too-large", "more than the 1000 bytes it declares"),
        ("escape.bcf", "bcf-unsafe-path", "\"../3f2c6f0e-8a51-4c55-9d8f-1b2a3c4d5e6f/markup.bcf\""),
        ("absolute.bcf", "bcf-unsafe-path", "\"/tmp/3f2c6f0e"),
        ("external-entity.bcf", "bcf-unsafe-xml", "document type declaration"),
        ("entity-expansion.bcf", "bcf-unsafe-xml", "document type declaration"),
        ("utf16.bcf", "bcf-unsafe-xml", "only UTF-8"),
    ]

    @Test func everyHostileFileIsRefusedWithItsCode() throws {
        guard Oracle.available else { return }
        let folder = try TestFolder.make("planmark-bcf-hostile")
        let made = try #require(try Oracle.json(["hostile", folder.path]) as? [String])
        #expect(Set(made) == Set(Self.expected.map(\.file)))
        for (file, code, words) in Self.expected {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(file)))
            do {
                _ = try BCFArchive(reading: bytes)
                Issue.record("\(file) was read")
            } catch {
                #expect(error.code == code, "\(file): \(error)")
                #expect(error.description.contains(words), "\(file): \(error)")
            }
        }
    }

    /// The limits are checked before anything is inflated: a small limit refuses a file that the default reads.
    @Test func theLimitsAreTheCallers() throws {
        let archive = BCFArchive(version: .v2_1, topics: [BCFTopic(guid: "3f2c6f0e-8a51-4c55-9d8f-1b2a3c4d5e6f", title: "t",
                                                                   creationDate: "2026-11-02T09:30:00Z", creationAuthor: "a@b.example")])
        let bytes = try archive.zip(date: Date())
        #expect(try BCFArchive(reading: bytes).topics.map(\.title) == ["t"])
        #expect(throws: BCFError.tooLarge("the file is \(bytes.count) bytes; at most 100 are read")) {
            try BCFArchive(reading: bytes, limits: BCFLimits(fileBytes: 100))
        }
        #expect(throws: BCFError.tooLarge("more than 1 entries in the zip")) { try BCFArchive(reading: bytes, limits: BCFLimits(entries: 1)) }
    }
}
