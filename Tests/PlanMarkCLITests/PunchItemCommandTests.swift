import Foundation
import PlanMarkTestSupport
import Testing

/// Punch items through the built `planmark` binary: the status workflow, bulk updates, offline capture
/// (uuid), export and import without loss, attachments, drawing rename and remove, filters and the summary.
/// Every expectation is written by hand from the issue's rules (the workflow table, the filter definitions).
@Suite struct PunchItemCommandTests {
    // MARK: The workflow

    /// The issue's table, written out by hand once for every test target (`WorkflowTable`).
    static let allowed = WorkflowTable.allowed
    static let statuses = WorkflowTable.statuses

    /// Every (from, to) pair of the five statuses through `planmark status`: allowed ones exit 0, print
    /// `TO NUMBER` and store the new status; refused ones exit 1 naming the current and the requested
    /// status, and change nothing.
    @Test func everyTransitionOfTheTable() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        var number = 0
        for from in Self.statuses {
            for to in Self.statuses {
                number += 1
                let mark = try sandbox.run(["mark", "A", "50", "50", "--status", from])
                #expect(mark.status == 0 && mark.stdout == "\(number)\n", "\(mark.stderr)")
                // A rejection (ready -> open) needs a reason; give one to every change so only the table decides.
                let result = try sandbox.run(["status", "A", String(number), to, "--reason", "checked on site"])
                let stored = try sandbox.markers("A").first { $0["number"] as? Int == number }?["status"] as? String
                if Self.allowed[from]!.contains(to) {
                    #expect(result.status == 0 && result.stdout == "\(to) \(number)\n", "\(from) -> \(to): \(result.stderr)")
                    #expect(stored == to, "\(from) -> \(to)")
                } else {
                    #expect(result.status == 1, "\(from) -> \(to)")
                    #expect(stored == from, "\(from) -> \(to)")
                    let expected = from == to
                        ? "planmark: drawing \"A\": marker \(number) is already \(from)\n"
                        : "planmark: drawing \"A\": marker \(number) is \(from) and cannot become \(to) (from \(from): "
                    #expect(result.stderr.hasPrefix(expected), "\(from) -> \(to): \(result.stderr)")
                    #expect(result.stdout.isEmpty)
                }
            }
        }
    }

    /// ready -> open is a rejection: refused without a reason (exit 1), kept in the history with one.
    /// `resolve` is the change to closed and `reopen` the change to open, with the same rules.
    @Test func rejectionNeedsAReasonAndResolveReopenFollowTheTable() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        #expect(try sandbox.run(["mark", "A", "50", "50", "--status", "ready"]).stdout == "1\n")
        let bare = try sandbox.run(["reopen", "A", "1"])
        #expect(bare.status == 1 && bare.stderr == "planmark: drawing \"A\": marker 1 is ready; sending it back to open needs a reason\n")
        let statusBare = try sandbox.run(["status", "A", "1", "open"])
        #expect(statusBare.status == 1 && statusBare.stderr == bare.stderr)
        let reopened = try sandbox.run(["reopen", "A", "1", "--reason", "paint still wet", "--author", "insp"])
        #expect(reopened.status == 0 && reopened.stdout == "reopened 1\n", "\(reopened.stderr)")
        let history = try sandbox.run(["history", "A", "1", "--format", "jsonl"]).stdout.split(separator: "\n")
        let last = try JSONSerialization.jsonObject(with: Data(history.last!.utf8)) as! [String: Any]
        #expect(last["action"] as? String == "reopened" && last["author"] as? String == "insp")
        #expect((last["new"] as? [String: Any])?["reason"] as? String == "paint still wet")
        #expect((last["old"] as? [String: Any])?["status"] as? String == "ready")

        // void -> closed is not in the table: resolve refuses it.
        #expect(try sandbox.run(["mark", "A", "60", "50", "--status", "void"]).stdout == "2\n")
        let resolveVoid = try sandbox.run(["resolve", "A", "2"])
        #expect(resolveVoid.status == 1 && resolveVoid.stderr.hasPrefix("planmark: drawing \"A\": marker 2 is void and cannot become closed"))
        #expect(try sandbox.run(["reopen", "A", "2"]).stdout == "reopened 2\n")
        #expect(try sandbox.run(["resolve", "A", "2"]).stdout == "resolved 2\n")
        // Bad words are usage errors naming where they were given.
        let bad = try sandbox.run(["status", "A", "2", "done"])
        #expect(bad.status == 64 && bad.stderr == "planmark: status: unknown status \"done\" (expected open, in-progress, ready, closed, void)\n")
        #expect(try sandbox.run(["status", "A", "9", "open"]).status == 66)
    }

    // MARK: Bulk changes

    /// `update` changes every listed marker or none: one unknown number or one refused transition and
    /// nothing at all changes.
    @Test func updateIsAllOrNone() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        for x in ["50", "60", "70"] { #expect(try sandbox.run(["mark", "A", x, "50"]).status == 0) }
        #expect(try sandbox.run(["resolve", "A", "3"]).status == 0)
        let before = try sandbox.snapshot()

        let unknown = try sandbox.run(["update", "A", "1", "2", "99", "--assignee", "Bob", "--priority", "high"])
        #expect(unknown.status == 66 && unknown.stderr == "planmark: drawing \"A\": no marker 99\n")
        #expect(try sandbox.snapshot() == before)
        // closed -> in-progress is refused for marker 3, so markers 1 and 2 keep their status and assignee too.
        let refused = try sandbox.run(["update", "A", "1", "2", "3", "--status", "in-progress", "--assignee", "Bob"])
        #expect(refused.status == 1 && refused.stderr.hasPrefix("planmark: drawing \"A\": marker 3 is closed and cannot become in-progress"))
        #expect(try sandbox.snapshot() == before)
        let badPriority = try sandbox.run(["update", "A", "1", "--priority", "urgent"])
        #expect(badPriority.status == 64 && badPriority.stderr.hasPrefix("planmark: --priority: unknown priority \"urgent\""))
        #expect(try sandbox.run(["update", "A", "1"]).status == 64)
        #expect(try sandbox.run(["update", "A", "1", "--due", "2026-02-30"]).status == 64)
        #expect(try sandbox.snapshot() == before)

        let done = try sandbox.run(["update", "A", "1", "2", "--status", "in-progress", "--category", "Paint", "--priority", "critical",
                                    "--assignee", "Bob", "--due", "2031-05-06", "--note", "second coat"])
        #expect(done.status == 0 && done.stdout == "updated 1\nupdated 2\n", "\(done.stderr)")
        let markers = try sandbox.markers()
        for marker in markers.prefix(2) {
            #expect(marker["status"] as? String == "in-progress" && marker["category"] as? String == "Paint")
            #expect(marker["priority"] as? String == "critical" && marker["assignee"] as? String == "Bob")
            #expect(marker["due"] as? String == "2031-05-06" && marker["note"] as? String == "second coat")
        }
        #expect(markers[2]["assignee"] is NSNull && markers[2]["status"] as? String == "closed")
        // --no-due and empty text clear.
        #expect(try sandbox.run(["update", "A", "2", "--no-due", "--assignee", "", "--category", ""]).status == 0)
        let second = try sandbox.markers()[1]
        #expect(second["due"] is NSNull && second["assignee"] is NSNull && second["category"] is NSNull)
        #expect(try sandbox.run(["update", "A", "2", "--due", "2031-01-01", "--no-due"]).status == 64)
    }

    // MARK: Offline capture

    /// `mark --uuid`: the same item sent twice is stored once (the second call prints the stored number);
    /// the same uuid with other content is refused.
    @Test func markWithTheSameUUIDIsIdempotent() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        let uuid = "0190A6C4-5E1B-7C3D-8F00-0000000000AA"
        let fields = ["--uuid", uuid, "--category", "Paint", "--priority", "high", "--assignee", "Ana", "--due", "2030-01-01",
                      "--captured-at", "2026-11-20T09:41:07.250+01:00", "--note", "crack"]
        #expect(try sandbox.run(["mark", "A", "20", "20"]).stdout == "1\n")
        let first = try sandbox.run(["mark", "A", "50", "60"] + fields)
        #expect(first.status == 0 && first.stdout == "2\n", "\(first.stderr)")
        let again = try sandbox.run(["mark", "A", "50", "60"] + fields)
        #expect(again.status == 0 && again.stdout == "2\n", "\(again.stderr)")
        #expect(try sandbox.markers().count == 2)
        let other = try sandbox.run(["mark", "A", "51", "60"] + fields)
        #expect(other.status == 1)
        #expect(other.stderr == "planmark: drawing \"A\": uuid \(uuid.lowercased()) is stored already, with other content, as marker 2\n")
        let marker = try sandbox.markers()[1]
        #expect(marker["uuid"] as? String == uuid.lowercased() && marker["capturedAt"] as? String == "2026-11-20T09:41:07.250+01:00")
        #expect(marker["category"] as? String == "Paint" && marker["priority"] as? String == "high" && marker["due"] as? String == "2030-01-01")
        let badUUID = try sandbox.run(["mark", "A", "50", "60", "--uuid", "not-a-uuid"])
        #expect(badUUID.status == 64 && badUUID.stderr.hasPrefix("planmark: --uuid: "))
        let badTime = try sandbox.run(["mark", "A", "50", "60", "--captured-at", "2026-11-20 09:41:07"])
        #expect(badTime.status == 64 && badTime.stderr.hasPrefix("planmark: --captured-at: "))
        #expect(try sandbox.markers().count == 2)
    }

    /// Importing one file twice stores nothing the second time, and says how many rows were stored already.
    @Test func importingOneFileTwiceStoresNothingTheSecondTime() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        let csv = """
            id,uuid,x,y,note,status,priority
            a,11111111-1111-4111-8111-111111111111,50,50,one,open,high
            b,22222222-2222-4222-8222-222222222222,250,50,two,ready,low
            c,33333333-3333-4333-8333-333333333333,60,200,three,closed,normal

            """
        let path = try sandbox.file("capture.csv", csv)
        let first = try sandbox.run(["import", "A", path])
        #expect(first.status == 0 && first.stdout == "3\n", "\(first.stderr)")
        #expect(first.stderr == "planmark: stored markers 1...3 in \"A\" (stored 3, already stored 0)\n")
        let before = try sandbox.snapshot()
        let second = try sandbox.run(["import", "A", path])
        #expect(second.status == 0 && second.stdout == "0\n", "\(second.stderr)")
        #expect(second.stderr == "planmark: nothing new stored in \"A\" (stored 0, already stored 3)\n")
        #expect(try sandbox.snapshot() == before)
        // The same three rows and one new: only the new one is stored.
        let more = try sandbox.file("more.csv", csv + "d,44444444-4444-4444-8444-444444444444,300,200,four,open,normal\n")
        let third = try sandbox.run(["import", "A", more])
        #expect(third.status == 0 && third.stdout == "1\n", "\(third.stderr)")
        #expect(third.stderr == "planmark: stored markers 4...4 in \"A\" (stored 1, already stored 3)\n")
        let markers = try sandbox.markers()
        #expect(markers.map { $0["id"] as? String } == ["a", "b", "c", "d"])
        #expect(markers.map { $0["status"] as? String } == ["open", "ready", "closed", "open"])
        #expect(markers.map { $0["priority"] as? String } == ["high", "low", "normal", "normal"])
    }

    /// `markers --format csv` and `--format geojson` imported into another store give the same markers,
    /// field by field, except what the new store gives (number, createdAt, updatedAt).
    @Test(arguments: ["csv", "geojson"])
    func exportImportRoundTripKeepsEveryField(format: String) async throws {
        let source = try StoreSandbox.withDrawing()
        // An imported marker with a ref and text that needs quoting in CSV and escaping in JSON (no line break:
        // the CSV reader refuses one inside quotes).
        let csv = """
            id,x,y,note,author,category,assignee,due,capturedAt,priority,status
            "ref, 1",50,60,"say ""hi"", then leave",ana,Paint,"Bob, Jr.",2000-01-01,2026-11-20T09:41:07+01:00,critical,ready
            r2,300,100,,,,,,,,

            """
        #expect(try source.run(["import", "A", try source.file("in.csv", csv), "--author", "importer"]).status == 0)
        // Markers placed one by one: no ref, statuses void and closed, on a shared wall, a non-ASCII note.
        #expect(try source.run(["mark", "A", "200", "150", "--status", "void", "--note", "Zoë's tab\there", "--author", "Zoë",
                                "--uuid", "0190a6c4-5e1b-7c3d-8f00-0000000000bb", "--category", "Électricité", "--priority", "low"]).status == 0)
        #expect(try source.run(["mark", "A", "120.5", "40.25", "--assignee", "Cy", "--due", "2999-12-31", "--author", "cy"]).status == 0)
        #expect(try source.run(["resolve", "A", "4"]).status == 0)
        let export = try source.run(["markers", "A", "--format", format])
        #expect(export.status == 0, "\(export.stderr)")

        let target = try StoreSandbox.withDrawing()
        let path = try target.file("export.\(format)", export.stdout)
        let imported = try target.run(["import", "A", path, "--author", "someone-else"])
        #expect(imported.status == 0 && imported.stdout == "4\n", "\(imported.stderr)")
        let original = try source.markers()
        let copy = try target.markers()
        #expect(copy.count == original.count)
        let fields = ["id", "uuid", "x", "y", "status", "category", "priority", "assignee", "due", "capturedAt", "note", "author",
                      "rooms", "overdue"]
        for (a, b) in zip(original, copy) {
            for field in fields {
                #expect(Self.same(a[field], b[field]), "\(format) marker \(a["number"] ?? "") \(field): \(a[field] ?? "nil") vs \(b[field] ?? "nil")")
            }
        }
        // The hand-written values survived (not only "equal to each other").
        #expect(copy[0]["id"] as? String == "ref, 1" && copy[0]["note"] as? String == "say \"hi\", then leave")
        #expect(copy[0]["assignee"] as? String == "Bob, Jr." && copy[0]["status"] as? String == "ready" && copy[0]["overdue"] as? Bool == true)
        #expect(copy[2]["id"] is NSNull && copy[2]["rooms"] as? [String] == ["R1", "R2"] && copy[2]["category"] as? String == "Électricité")
        #expect(copy[3]["status"] as? String == "closed" && copy[3]["due"] as? String == "2999-12-31")
        // Imported again into the same store: every uuid is stored already.
        let twice = try target.run(["import", "A", path])
        #expect(twice.stdout == "0\n" && twice.stderr.contains("(stored 0, already stored 4)"))
    }

    /// Two JSON values (from JSONSerialization) are the same.
    static func same(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (is NSNull, is NSNull): return true
        case (let x as String, let y as String): return x == y
        case (let x as Bool, let y as Bool): return x == y
        case (let x as NSNumber, let y as NSNumber): return x == y
        case (let x as [String], let y as [String]): return x == y
        default: return false
        }
    }

    // MARK: Attachments

    /// The smallest files of each kind, written by hand: a JPEG's SOI, APP0 (JFIF) and EOI markers, a PDF
    /// header and trailer; the PNG is a whole encoded image.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
                                0x00, 0x01, 0x00, 0x00, 0xFF, 0xD9]
    static let pdf = Array("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)

    @Test func attachmentsAreCheckedStoredOnceAndServedBackIdentical() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        #expect(try sandbox.run(["mark", "A", "50", "50"]).status == 0)
        let jpegPath = sandbox.folder.appendingPathComponent("photo.jpg").path
        try Data(Self.jpeg).write(to: URL(fileURLWithPath: jpegPath))
        let pdfPath = sandbox.folder.appendingPathComponent("report.pdf").path
        try Data(Self.pdf).write(to: URL(fileURLWithPath: pdfPath))
        let pngPath = try sandbox.png("snap.png", width: 4, height: 3)
        let textPath = try sandbox.file("notes.jpg", "not a photo, just text\n")

        let one = try sandbox.run(["attach", "A", "1", jpegPath, "--caption", "crack, north wall"])
        #expect(one.status == 0 && one.stdout == "1\n", "\(one.stderr)")
        #expect(try sandbox.run(["attach", "A", "1", pngPath]).stdout == "2\n")
        #expect(try sandbox.run(["attach", "A", "1", pdfPath]).stdout == "3\n")
        // The same photo again: a fourth attachment, but its bytes are stored once.
        #expect(try sandbox.run(["attach", "A", "1", jpegPath]).stdout == "4\n")
        let blobs = try Self.sqlite(sandbox.store, "SELECT count(*) FROM attachmentBlob")
        #expect(blobs == "3\n")

        let renamed = try sandbox.run(["attach", "A", "1", textPath])
        #expect(renamed.status == 65 && renamed.stderr == "planmark: \(textPath): not a JPEG, PNG or PDF (judged by its first bytes)\n")
        let tooLarge = try sandbox.run(["attach", "A", "1", pdfPath, "--max-attachment", String(Self.pdf.count - 1)])
        #expect(tooLarge.status == 65 && tooLarge.stderr == "planmark: \(pdfPath): larger than --max-attachment (\(Self.pdf.count - 1) bytes)\n")
        #expect(try sandbox.run(["attach", "A", "1", pdfPath, "--max-attachment", String(Self.pdf.count)]).stdout == "5\n")
        #expect(try sandbox.run(["attach", "A", "1", "missing.jpg"]).status == 66)
        #expect(try sandbox.run(["attach", "A", "7", jpegPath]).status == 66)

        let list = try sandbox.run(["attachments", "A", "1", "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as! [String: Any]
        let items = object["attachments"] as! [[String: Any]]
        #expect(items.map { $0["id"] as? Int } == [1, 2, 3, 4, 5])
        #expect(items.map { $0["contentType"] as? String } == ["image/jpeg", "image/png", "application/pdf", "image/jpeg", "application/pdf"])
        #expect(items[0]["size"] as? Int == Self.jpeg.count && items[0]["caption"] as? String == "crack, north wall")
        #expect(items[0]["sha256"] as? String == sha256sum(Self.jpeg))
        #expect(items[3]["sha256"] as? String == items[0]["sha256"] as? String)
        let text = try sandbox.run(["attachments", "A", "1"]).stdout.split(separator: "\n")
        #expect(text.count == 6 && text[0] == "id\tcontentType\tsize\tsha256\tcreatedAt\tcaption")

        // Bytes back, identical: to a file and to stdout.
        let out = sandbox.folder.appendingPathComponent("back.pdf").path
        #expect(try sandbox.run(["attachment", "A", "1", "3", "-o", out]).status == 0)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: out))) == Self.pdf)
        let stdout = try sandbox.run(["attachment", "A", "1", "1", "-o", "-"])
        #expect([UInt8](stdout.stdoutData) == Self.jpeg)
        let png = try sandbox.run(["attachment", "A", "1", "2", "-o", "-"])
        #expect(png.stdoutData == (try Data(contentsOf: URL(fileURLWithPath: pngPath))))

        // Detach: the bytes shared with attachment 1 stay; the history has both changes.
        let detached = try sandbox.run(["detach", "A", "1", "4"])
        #expect(detached.status == 0 && detached.stdout == "detached 4\n")
        #expect(try sandbox.run(["attachment", "A", "1", "4", "-o", "-"]).status == 66)
        #expect([UInt8](try sandbox.run(["attachment", "A", "1", "1", "-o", "-"]).stdoutData) == Self.jpeg)
        #expect(try Self.sqlite(sandbox.store, "SELECT count(*) FROM attachmentBlob") == "3\n")
        let again = try sandbox.run(["detach", "A", "1", "4"])
        #expect(again.status == 66 && again.stderr == "planmark: drawing \"A\": marker 1 has no attachment 4\n")
        let actions = try sandbox.run(["history", "A", "1", "--format", "jsonl"]).stdout.split(separator: "\n")
            .map { (try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any])["action"] as? String }
        #expect(actions == ["created", "attached", "attached", "attached", "attached", "attached", "detached"])
    }

    /// Runs the sqlite3 shell on `path` (installed by Drawings/install-deps.sh).
    static func sqlite(_ path: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", path, sql]
        let pipe = ChildProcess.pipe()
        process.standardOutput = pipe
        try ChildProcess.run(process)
        let data = pipe.fileHandleForReading.readBytesToEnd()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: Drawings

    @Test func drawingRenameAndRemove() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        #expect(try sandbox.run(["mark", "A", "50", "50"]).status == 0)
        let renamed = try sandbox.run(["drawing", "rename", "A", "B"])
        #expect(renamed.status == 0 && renamed.stdout == "renamed A B\n", "\(renamed.stderr)")
        #expect(try sandbox.run(["markers", "A"]).status == 66)
        #expect(try sandbox.markers("B").count == 1)
        #expect(try sandbox.run(["drawing", "rename", "nope", "C"]).status == 66)
        // A second drawing to collide with.
        #expect(try sandbox.run(["drawing", "add", try sandbox.png(), "--name", "A"]).status == 0)
        let taken = try sandbox.run(["drawing", "rename", "B", "A"])
        #expect(taken.status == 1 && taken.stderr == "planmark: drawing \"A\": a drawing with this name already exists\n")

        let before = try sandbox.snapshot()
        let unconfirmed = try sandbox.run(["drawing", "remove", "B"])
        #expect(unconfirmed.status == 64 && unconfirmed.stderr.hasPrefix("planmark: drawing remove: "))
        let withMarkers = try sandbox.run(["drawing", "remove", "B", "--yes"])
        #expect(withMarkers.status == 1 && withMarkers.stderr == "planmark: drawing \"B\": has 1 marker; remove them first or force the removal\n")
        #expect(try sandbox.snapshot() == before)
        let forced = try sandbox.run(["drawing", "remove", "B", "--yes", "--force"])
        #expect(forced.status == 0 && forced.stdout == "removed B (1 markers, 0 attachments)\n", "\(forced.stderr)")
        #expect(try sandbox.run(["markers", "B"]).status == 66)
        let empty = try sandbox.run(["drawing", "remove", "A", "--yes"])
        #expect(empty.status == 0 && empty.stdout == "removed A (0 markers, 0 attachments)\n")
        #expect(try sandbox.run(["drawing", "list", "--format", "json"]).stdout == "{\"drawings\":[]}\n")
    }

    // MARK: Filters and the summary

    /// Six markers with known rooms (R1 is x 10...200, R2 x 200...390; x 200 is on their shared wall),
    /// statuses, categories, priorities, assignees, due dates (2000 is past, 2999 future) and notes.
    static func filterFixture() throws -> StoreSandbox {
        let sandbox = try StoreSandbox.withDrawing()
        let markers: [[String]] = [
            ["50", "50", "--status", "open", "--category", "Paint", "--priority", "high", "--assignee", "Ana", "--due", "2000-01-01", "--note", "crack in wall"],
            ["300", "50", "--status", "ready", "--category", "Electrical", "--priority", "low", "--assignee", "Bob", "--due", "2999-12-31", "--note", "socket"],
            ["100", "200", "--status", "closed", "--category", "paint", "--priority", "critical", "--assignee", "ana", "--due", "2000-01-01"],
            ["250", "250", "--status", "void", "--due", "2000-06-01", "--note", "Crack near door"],
            ["350", "150", "--status", "in-progress", "--category", "Plumbing", "--priority", "high", "--assignee", "Cy", "--due", "2001-01-01", "--note", "leak"],
            ["200", "100", "--note", "Wall: crack"],
        ]
        for (index, arguments) in markers.enumerated() {
            let result = try sandbox.run(["mark", "A"] + arguments)
            #expect(result.stdout == "\(index + 1)\n", "\(result.stderr)")
        }
        #expect(try sandbox.markers().map { $0["rooms"] as? [String] } == [["R1"], ["R2"], ["R1"], ["R2"], ["R2"], ["R1", "R2"]])
        return sandbox
    }

    @Test func eachFilterTakesTheHandPickedMarkers() async throws {
        let sandbox = try Self.filterFixture()
        let cases: [([String], [Int])] = [
            ([], [1, 2, 3, 4, 5, 6]),
            (["--status", "open"], [1, 6]),
            (["--status", "open,ready"], [1, 2, 6]),
            (["--status", "resolved"], [3]),
            (["--status", "in-progress,void"], [4, 5]),
            (["--category", "PAINT"], [1, 3]),
            (["--assignee", "ana"], [1, 3]),
            (["--priority", "high"], [1, 5]),
            (["--priority", "high,critical"], [1, 3, 5]),
            (["--room", "R1"], [1, 3, 6]),
            (["--room", "R2"], [2, 4, 5, 6]),
            (["--room", "R9"], []),
            (["--overdue"], [1, 5]),
            (["--search", "crack"], [1, 4, 6]),
            (["--search", "BOB"], [2]),
            (["--search", "plumb"], [5]),
            (["--room", "R1", "--status", "open", "--search", "crack"], [1, 6]),
            (["--overdue", "--assignee", "Cy"], [5]),
        ]
        for (options, expected) in cases {
            let numbers = try sandbox.markers("A", options).map { $0["number"] as? Int }
            #expect(numbers == expected.map { $0 }, "\(options)")
        }
        let badStatus = try sandbox.run(["markers", "A", "--status", "open,done"])
        #expect(badStatus.status == 64 && badStatus.stderr == "planmark: --status: unknown status \"done\" (expected open, in-progress, ready, closed, void)\n")
        let badPriority = try sandbox.run(["markers", "A", "--priority", "urgent"])
        #expect(badPriority.status == 64 && badPriority.stderr.hasPrefix("planmark: --priority: unknown priority \"urgent\""))
        // The overdue flag in every marker object: due before today and not closed or void.
        #expect(try sandbox.markers().map { $0["overdue"] as? Bool } == [true, false, false, false, true, false])
    }

    /// `render NAME` takes the same filters: the images of all markers, of markers 1 and 3, and of none
    /// differ, and a bad value is the same usage error.
    @Test func renderTakesTheSameFilters() async throws {
        let sandbox = try Self.filterFixture()
        let all = try sandbox.run(["render", "A", "-o", "-"])
        let filtered = try sandbox.run(["render", "A", "--assignee", "Ana", "--room", "R1", "-o", "-"])
        #expect(all.status == 0 && filtered.status == 0, "\(filtered.stderr)")
        #expect(!filtered.stdoutData.isEmpty && filtered.stdoutData != all.stdoutData)
        let none = try sandbox.run(["render", "A", "--room", "R9", "-o", "-"])
        #expect(none.status == 0 && none.stdoutData != filtered.stdoutData && none.stdoutData != all.stdoutData)
        let bad = try sandbox.run(["render", "A", "--status", "done", "-o", "x.png"])
        #expect(bad.status == 64 && bad.stderr.hasPrefix("planmark: --status: unknown status \"done\""))
        let withImage = try sandbox.run(["render", "--image", try sandbox.png(), "--overdue", "-o", "x.png"])
        #expect(withImage.status == 64)
    }

    @Test func summaryCountsByHand() async throws {
        let sandbox = try Self.filterFixture()
        let json = try sandbox.run(["summary", "A", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout == """
            {"drawing":"A","total":6,"byStatus":{"open":2,"in-progress":1,"ready":1,"closed":1,"void":1},\
            "byPriority":{"low":1,"normal":2,"high":2,"critical":1},"byRoom":{"R1":3,"R2":4},"withoutRoom":0,\
            "byAssignee":{"Ana":1,"Bob":1,"Cy":1,"ana":1},"unassigned":2,"overdue":2,"filters":null}

            """)
        let text = try sandbox.run(["summary", "A", "--room", "R1"])
        #expect(text.stdout == """
            filters: room=R1
            markers: 3
            status: open 2, in-progress 0, ready 0, closed 1, void 0
            priority: low 0, normal 1, high 1, critical 1
            rooms: R1 3, R2 1
            assignees: Ana 1, ana 1, unassigned 1
            overdue: 1

            """)
    }
}
