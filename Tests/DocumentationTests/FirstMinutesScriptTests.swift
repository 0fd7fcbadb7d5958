import Foundation
import Testing

/// The two commands a new user runs first keep their word: `Drawings/demo.sh` says what it builds and about how
/// long before building, builds only planmark, planmark-pdf (the child process planmark reads PDF drawings with) and
/// planmark-server without PostgreSQL in its own scratch path (the one the README's PATH names), and says its time at the end; `.ci/run` builds its no-PostgreSQL check in its own
/// scratch path and runs that build. The demo's run itself (its first and last lines, the README's commands on its
/// store) is tested in PlanMarkCLITests (FirstMinutesTests), with binaries already built.
@Suite("The first minutes: demo.sh and .ci/run")
struct FirstMinutesScriptTests {
    static func read(_ path: String) throws -> [String] {
        try String(contentsOfFile: DocumentationLinkTests.root + "/" + path, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The words of a shell line, split at white space (the scripts' build lines quote nothing).
    static func words(_ line: String) -> [String] {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }

    /// The value after `option` in `words`.
    static func value(_ option: String, in words: [String]) -> String? {
        guard let index = words.firstIndex(of: option), index + 1 < words.count else { return nil }
        return words[index + 1]
    }

    @Test("demo.sh says what it builds and about how long first, builds without PostgreSQL apart, and says its time last")
    func demoBuildsLittleAndSaysSo() throws {
        let lines = try Self.read("Drawings/demo.sh")
        let builds = lines.enumerated().filter { $0.element.trimmingCharacters(in: .whitespaces).hasPrefix("swift build") }
        #expect(builds.count == 3, "\(builds.map(\.element))")
        var products: [String] = []
        var scratch: Set<String> = []
        for (_, line) in builds {
            let words = Self.words(line)
            #expect(words.contains("--disable-default-traits"), "\(line): builds the PostgreSQL stack")
            products += Self.value("--product", in: words).map { [$0] } ?? []
            scratch.insert(Self.value("--scratch-path", in: words) ?? ".build")
        }
        #expect(products == ["planmark", "planmark-pdf", "planmark-server"])
        #expect(scratch == [".build-demo"], "the demo builds in \(scratch), not apart from .build")

        // Before installing or building anything: one line naming the three products, the folder and a time.
        let firstWork = try #require(lines.firstIndex {
            !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") && ($0.contains("install-deps.sh") || $0.contains("swift build"))
        })
        let estimate = try #require(lines[..<firstWork].first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("echo \"demo: builds ") },
                                    "no estimate line before the demo installs or builds")
        #expect(estimate.contains("planmark, planmark-pdf and planmark-server") && estimate.contains(".build-demo/"), "\(estimate)")
        let minutes = estimate.range(of: #"about [0-9]+ minutes the first time"#, options: .regularExpression)
        #expect(minutes != nil, "no time estimate in: \(estimate)")
        #expect(lines.contains { $0.contains("install-deps.sh --demo") }, "the demo installs the test tools too")

        let last = try #require(lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(last == #"echo "demo done in $SECONDS s" >&2"#)

        // The README's tour puts that scratch path's binaries on the PATH.
        let readme = try Self.read("README.md")
        #expect(readme.contains { $0.hasPrefix(#"export PATH="$PWD/.build-demo/debug:$PATH""#) })
    }

    @Test(".ci/run builds its no-PostgreSQL check apart and runs that build, leaving .build as the default build")
    func ciRunLeavesTheDefaultBuild() throws {
        let lines = try Self.read(".ci/run")
        let noPostgres = try #require(lines.first { $0.hasPrefix("swift build") && $0.contains("--disable-default-traits") })
        let scratch = try #require(Self.value("--scratch-path", in: Self.words(noPostgres)), "\(noPostgres): builds into .build")
        #expect(scratch != ".build" && scratch.hasPrefix(".build"), "\(scratch): not a separate, git-ignored scratch path")
        #expect(lines.contains { $0.hasPrefix("\(scratch)/debug/planmark markers ") && $0.contains("postgres://") },
                "the exit-64 check does not run \(scratch)/debug/planmark")
        #expect(!lines.contains { $0.hasPrefix(".build/debug/planmark") })
        // Every other build is the default one, in .build.
        for line in lines where line.hasPrefix("swift build") && line != noPostgres {
            #expect(Self.value("--scratch-path", in: Self.words(line)) == nil && !line.contains("--disable-default-traits"), "\(line)")
        }
    }
}
