import Foundation
import PlanMarkRender
import PlanMarkTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `planmark drawing revise`, the revisions in `drawing show`, `needsPlacement` in exports, `render --revision`.
@Suite(.serialized) struct RevisionCommandTests {
    /// Drawing "A" (400 x 300, allowed 10...390 x 10...290, rooms R1 | R2 at x = 200) with markers 1 (50, 50),
    /// 2 (300, 100), 3 (380, 280).
    static func sandbox() throws -> StoreSandbox {
        let sandbox = try StoreSandbox.withDrawing()
        for (x, y) in [("50", "50"), ("300", "100"), ("380", "280")] {
            let result = try sandbox.run(["mark", "A", x, y])
            #expect(result.status == 0, "\(result.stderr)")
        }
        return sandbox
    }

    func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    }

    /// Shifted +50 px on a sheet of the same size: marker 3 lands at (430, 280), off the sheet; it is listed
    /// (text and JSON), kept there and exported with `needsPlacement`.
    @Test func reviseFlagsMarkersOffTheNewSheet() async throws {
        let sandbox = try Self.sandbox()
        let png = try sandbox.png("rev2.png")
        let result = try sandbox.run(["drawing", "revise", "A", png, "--align", "0,0=50,0;100,100=150,100", "--format", "json", "--author", "ben"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(result.stdout)
        #expect(report["revision"] as? Int == 2 && report["previous"] as? Int == 1 && report["dryRun"] as? Bool == false)
        #expect(report["markers"] as? Int == 3)
        let transform = report["transform"] as! [String: Double]
        #expect(transform == ["a": 1, "b": 0, "c": 50, "d": 0, "e": 1, "f": 0])
        let flagged = report["needsPlacement"] as! [[String: Any]]
        #expect(flagged.count == 1 && flagged[0]["number"] as? Int == 3 && flagged[0]["reason"] as? String == "outside-drawing")
        #expect(flagged[0]["to"] as? [Double] == [430, 280])
        let markers = try sandbox.markers()
        #expect(markers.map { $0["x"] as? Double } == [100, 350, 430])
        #expect(markers[2]["needsPlacement"] as? String == "outside-drawing")
        #expect(markers[0]["needsPlacement"] is NSNull)
        #expect(try sandbox.markers("A", ["--needs-placement"]).map { $0["number"] as? Int } == [3])
        let csv = try sandbox.run(["markers", "A", "--format", "csv"]).stdout.split(separator: "\n")
        #expect(csv[0].hasSuffix(",updatedAt,needsPlacement"))
        #expect(csv[3].hasSuffix(",outside-drawing") && csv[1].hasSuffix(","))
        // An export with the new column reads back as a markers file (the column is ignored): 3 rows, and only
        // marker 3, at (430, 280), outside the allowed area 10...390.
        let export = try sandbox.file("export.csv", try sandbox.run(["markers", "A", "--format", "csv"]).stdout)
        let validated = try CLIRunner.run(["validate", "--regions", try sandbox.file("r.geojson", StoreSandbox.regions), "--size", "500x400",
                                           "--report", "jsonl", export], in: sandbox.folder)
        #expect(validated.status == 1, "\(validated.stderr)")
        #expect(validated.stdout.split(separator: "\n").map { $0.contains("\"valid\":true") } == [true, true, false])
        // drawing show lists both revisions.
        let show = try json(try sandbox.run(["drawing", "show", "A", "--format", "json"]).stdout)
        #expect(show["revision"] as? Int == 2)
        let revisions = show["revisions"] as! [[String: Any]]
        #expect(revisions.map { $0["number"] as? Int } == [1, 2])
        #expect(revisions[0]["transform"] is NSNull && revisions[1]["author"] as? String == "ben")
        let text = try sandbox.run(["drawing", "show", "A"]).stdout
        #expect(text.contains("revision: 2 of 2") && text.contains("revision 1: 400x300 px"))
        // Moving marker 3 onto the sheet clears its flag.
        #expect(try sandbox.run(["move", "A", "3", "300", "200"]).status == 0)
        #expect(try sandbox.markers()[2]["needsPlacement"] is NSNull)
        let history = try sandbox.run(["history", "A", "3", "--format", "jsonl"]).stdout
        #expect(history.contains("\"action\":\"revised\""))
    }

    /// Transforms whose results are not finite are usage errors before anything is stored. On main 668aa73 a
    /// drawing without regions took `0,0=0,0;1,0=1e308,0` (scale 1e308: markers at x >= 2 overflow to infinity)
    /// with exit 0 and stored every marker at (inf, inf); `0,0=0,0;1e-200,0=1,0` (the pairs' squared distance
    /// underflows to 0) failed with exit 74 and an SQLite constraint.
    @Test(arguments: [
        ("0,0=0,0;1,0=1e308,0", "would be carried to"),
        ("0,0=0,0;1e-200,0=1,0", "is not made of finite numbers"),
        ("0,0=0,0;1e200,0=1,0", "is not made of finite numbers"),
        ("0,0=0,0;1,0=1e-320,0", "carries distinct previous positions to the same place"),
        ("0,0=0,0;100,0=0,100;0,100=1e308,1e308", "is not made of finite numbers"),
    ])
    func nonFiniteTransformsAreUsageErrors(align: String, message: String) async throws {
        for withRegions in [false, true] {
            let sandbox: StoreSandbox
            if withRegions {
                sandbox = try Self.sandbox()
            } else {
                sandbox = try StoreSandbox()
                #expect(try sandbox.run(["drawing", "add", try sandbox.png(), "--name", "A"]).status == 0)
                for (x, y) in [("50", "50"), ("300", "100")] { #expect(try sandbox.run(["mark", "A", x, y]).status == 0) }
            }
            let before = try sandbox.snapshot()
            let png = try sandbox.png("rev2.png")
            let result = try sandbox.run(["drawing", "revise", "A", png, "--align", align])
            #expect(result.status == 64, "\(align) regions: \(withRegions): \(result.stderr)")
            #expect(result.stderr.hasPrefix("planmark: --align: ") && result.stderr.contains(message), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(try sandbox.snapshot() == before)
            #expect(try sandbox.markers().allSatisfy { ($0["x"] as? Double)?.isFinite == true && ($0["y"] as? Double)?.isFinite == true })
        }
    }

    /// Four pairs whose affine has residual 0.25 at every pair (worked out in AlignmentTests): refused with
    /// --max-residual 0.1 (exit 1, nothing stored), accepted with the default 2 px; its text report and `drawing show`
    /// say the residuals to 0.1 px, half away from zero (0.3).
    @Test func residualOverTheLimitStoresNothing() async throws {
        let sandbox = try Self.sandbox()
        let png = try sandbox.png("rev2.png", width: 800, height: 600)
        let before = try sandbox.snapshot()
        let align = "0,0=0,0;10,0=20,0;0,10=0,20;10,10=20,21"
        let refused = try sandbox.run(["drawing", "revise", "A", png, "--align", align, "--max-residual", "0.1"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "planmark: --align: the residual of pair 1 is 0.25 px, over --max-residual 0.1 px; nothing stored\n"
                || refused.stderr.hasPrefix("planmark: --align: the residual of pair "), "\(refused.stderr)")
        #expect(try sandbox.snapshot() == before)
        let accepted = try sandbox.run(["drawing", "revise", "A", png, "--align", align])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.contains("revision 2 (from 1), 800x600 px"))
        #expect(accepted.stdout.contains("residuals (px): 0.3 0.3 0.3 0.3\n"), "\(accepted.stdout)")
        #expect(try sandbox.run(["drawing", "show", "A"]).stdout.contains(", max residual 0.3 px,"))
        // Degenerate or malformed pairs are usage errors.
        let collinear = try sandbox.run(["drawing", "revise", "A", png, "--align", "0,0=0,0;1,1=2,2;2,2=4,4"])
        #expect(collinear.status == 64 && collinear.stderr.hasPrefix("planmark: --align: the previous positions all lie on one line"))
        #expect(try sandbox.run(["drawing", "revise", "A", png, "--align", "0,0=0"]).status == 64)
        #expect(try sandbox.run(["drawing", "revise", "Z", png]).status == 66)
    }

    /// A dry run prints the same outcome and stores nothing.
    @Test func dryRunStoresNothing() async throws {
        let sandbox = try Self.sandbox()
        let png = try sandbox.png("rev2.png")
        let before = try sandbox.snapshot()
        let dry = try sandbox.run(["drawing", "revise", "A", png, "--align", "0,0=50,0;100,100=150,100", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.hasPrefix("dry run: nothing stored\n"))
        #expect(dry.stdout.contains("markers: 3 carried, 0 changed rooms, 1 need placement\n"))
        #expect(dry.stdout.contains("\n3\toutside-drawing\t380 280\t430 280\n"))
        #expect(try sandbox.snapshot() == before)
    }

    /// `render --revision 1` draws revision 1's image (400 x 300) with the markers where they were on it; the
    /// current revision is 800 x 600.
    @Test func renderAnOlderRevision() async throws {
        let sandbox = try Self.sandbox()
        let png = try sandbox.png("rev2.png", width: 800, height: 600)
        #expect(try sandbox.run(["drawing", "revise", "A", png, "--align", "0,0=0,0;100,0=200,0"]).status == 0)
        let old = sandbox.folder.appendingPathComponent("r1.png").path
        let current = sandbox.folder.appendingPathComponent("r2.png").path
        #expect(try sandbox.run(["render", "A", "--revision", "1", "-o", old]).status == 0)
        #expect(try sandbox.run(["render", "A", "-o", current]).status == 0)
        let first = try PNGDecoder().decode(path: old), second = try PNGDecoder().decode(path: current)
        #expect(first.width == 400 && first.height == 300 && second.width == 800 && second.height == 600)
        // The pin of marker 1 is drawn near (50, 50) on revision 1 (the sheet is white; only outlines and pins are
        // not, and no room outline is drawn for an older revision): some pixel within 30 px of it is not white.
        var drawn = false
        for y in 20..<80 { for x in 20..<80 where first.pixels[(y * 400 + x) * 4] != 255 { drawn = true } }
        #expect(drawn)
        let missing = try sandbox.run(["render", "A", "--revision", "3", "-o", old])
        #expect(missing.status == 66 && missing.stderr == "planmark: drawing \"A\": no revision 3\n")
    }

    #if os(Linux)  // waits through inotify (FolderWatch)
    /// `kill -9` while a revise of 300,000 markers writes: the store is as it was before, and works on.
    @Test func killDuringReviseLeavesTheStoreAsItWas() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        var csv = "x,y\n"
        csv.reserveCapacity(300_000 * 12)
        for i in 0..<300_000 { csv += "\(20 + i % 360),\(20 + (i / 360) % 260)\n" }
        let imported = try sandbox.run(["import", "A", try sandbox.file("big.csv", csv)])
        #expect(imported.stdout == "300000\n", "\(imported.stderr)")
        let png = try sandbox.png("rev2.png")
        let before = try sandbox.snapshot()
        let wal = sandbox.store + "-wal"
        func walSize() -> Int { (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0 }
        let baseline = walSize()
        let watch = try FolderWatch(sandbox.folder.path)
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["drawing", "revise", "A", png, "--align", "0,0=1,0;100,0=101,0", "--store", sandbox.store]
        process.currentDirectoryURL = sandbox.folder
        let out = ChildProcess.pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try ChildProcess.run(process)
        // Once the revise's transaction has written several MB to the WAL, kill it (woken by each write in the
        // folder, or by its stdout closing: it finished); 120 s bounds a hang.
        let killedMidway = watch.wait(untilEndOf: out.fileHandleForReading.fileDescriptor, timeout: 120) {
            walSize() > baseline + (4 << 20)
        }
        if killedMidway { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(killedMidway, "the revise finished before it could be killed")
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(try sandbox.snapshot() == before)
        // The store works on: a revise now stores revision 2.
        let again = try sandbox.run(["drawing", "revise", "A", png, "--format", "json"])
        #expect(again.status == 0, "\(again.stderr)")
        let report = try json(again.stdout)
        #expect(report["revision"] as? Int == 2)
    }
    #endif
}
