import Foundation
import Testing

/// The documentation's links hold: every relative link and image in README.md, CONTRIBUTING.md and docs/*.md names
/// a file that exists, and every `#fragment` a heading in its target. README.md stays a front door (under 200 lines).
@Suite("Documentation links")
struct DocumentationLinkTests {
    /// The package root: this file is `Tests/DocumentationTests/DocumentationLinkTests.swift`.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.standardizedFileURL.path
    }()

    /// README.md, CONTRIBUTING.md and every docs/*.md, sorted.
    static func documents() throws -> [String] {
        let docs = root + "/docs"
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs)
            .filter { $0.hasSuffix(".md") }
            .sorted()
            .map { docs + "/" + $0 }
        return [root + "/README.md", root + "/CONTRIBUTING.md"] + pages
    }

    @Test("every link in the documentation resolves to a file and a heading")
    func everyLinkResolves() async throws {
        let files = try Self.documents()
        #expect(files.count > 2, "no pages in docs/")
        var problems: [String] = []
        var links = 0
        for path in files {
            guard let text = LinkChecker.fileSystem.read(path) else {
                problems.append("\(LinkChecker.relative(path, to: Self.root)): cannot be read")
                continue
            }
            links += MarkdownLinks.links(in: text).count
            problems += LinkChecker.fileSystem.problems(inFile: path, text: text, root: Self.root)
        }
        #expect(links > 0, "found no links at all: the scanner is broken")
        #expect(problems.isEmpty, "\(problems.count) broken link(s):\n\(problems.joined(separator: "\n"))")
    }

    @Test("README.md has fewer than 200 lines")
    func readmeIsShort() async throws {
        let text = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        if text.hasSuffix("\n") { lines -= 1 }
        #expect(lines < 200, "README.md has \(lines) lines; move reference material into docs/")
    }

    /// A small tree in memory: the checker reports a missing file and a missing anchor, with file and line, and
    /// nothing in code, outside links, or anchors that exist (duplicates numbered).
    @Test("a broken file link and a broken anchor are reported with file:line")
    func brokenLinksAreReported() async {
        let files: [String: String] = [
            "/r/README.md": """
                # Front door
                See [the page](docs/page.md), [its second heading](docs/page.md#real-heading-1),
                [a missing page](docs/missing.md) and [a missing heading](docs/page.md#no-such-heading).
                ![a picture](docs/shot.png) and [the web](https://example.com/x.md) and [mail](mailto:a@b.c).
                `[inline code](nowhere.md)` is not a link; neither is this:
                ```sh
                [fenced](nowhere.md)
                ```
                Back to [the top](#front-door), and [a missing local heading](#nowhere).
                """,
            "/r/docs/page.md": """
                # Real heading
                ## Real heading
                ## Store commands: `planmark drawing`, `mark`
                Up: [README](../README.md#front-door).
                """,
        ]
        let checker = LinkChecker(
            read: { files[$0] },
            exists: { files[$0] != nil || $0 == "/r/docs/shot.png" || $0 == "/r/docs" }
        )
        let problems = checker.problems(inFile: "/r/README.md", text: files["/r/README.md"]!, root: "/r")
        #expect(problems == [
            "README.md:3: docs/missing.md: no such file docs/missing.md",
            "README.md:3: docs/page.md#no-such-heading: no heading #no-such-heading in docs/page.md",
            "README.md:9: #nowhere: no heading #nowhere in README.md",
        ])
        #expect(checker.problems(inFile: "/r/docs/page.md", text: files["/r/docs/page.md"]!, root: "/r").isEmpty)
        #expect(MarkdownLinks.anchors(in: files["/r/docs/page.md"]!)
            == ["real-heading", "real-heading-1", "store-commands-planmark-drawing-mark"])
    }

    @Test("headings become GitHub's anchors")
    func slugs() async {
        #expect(MarkdownLinks.slug("Revisions: `planmark drawing revise`") == "revisions-planmark-drawing-revise")
        #expect(MarkdownLinks.slug("Leaflet (`L.CRS.Simple`, drawing CRS `leaflet`)") == "leaflet-lcrssimple-drawing-crs-leaflet")
        #expect(MarkdownLinks.slug("PostgreSQL: several servers on one database") == "postgresql-several-servers-on-one-database")
        #expect(MarkdownLinks.slug("snake_case and kebab-case") == "snake_case-and-kebab-case")
        #expect(MarkdownLinks.headingText("## Closed ##") == "Closed")
        #expect(MarkdownLinks.headingText("#hashtag") == nil)
    }
}
