import Foundation
import PlanMarkPDFCore
import PlanMarkPDFProcess
import PlanMarkPDFTestSupport
import PlanMarkRender
import PlanMarkTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Files that are not drawable PDFs, a file that makes poppler spin, a child that crashes or misbehaves, no child at
/// all: each ends in its own `PDFProcessError`, the test process (the parent) carries on, and no child is left.
@Suite(.enabled(if: PDFProcessFixtures.missing == nil, "\(PDFProcessFixtures.missing ?? "")"), .hangGuard)
struct PDFRendererHostileTests {
    /// Calls `body` with a renderer that reports its children's pids, and checks that each is gone afterwards.
    func withRenderer(
        _ renderer: PDFRenderer = PDFRenderer(), _ body: (PDFRenderer) async -> PDFProcessError?
    ) async -> PDFProcessError? {
        let pids = PIDs()
        var renderer = renderer
        renderer.spawned = { pids.add($0) }
        let error = await body(renderer)
        for pid in pids.all { #expect(PDFProcessFixtures.isGone(pid), "child \(pid) is still there") }
        return error
    }

    /// The `info` error of fixture `name`, shown as "in.pdf".
    func infoError(_ name: String, _ renderer: PDFRenderer = PDFRenderer()) async throws -> PDFProcessError? {
        let file = try PDFFixtures.path(name)
        return await withRenderer(renderer) { renderer in
            await processError { () async throws(PDFProcessError) in try await renderer.info(file: file, dpi: 300, name: "in.pdf") }
        }
    }

    /// The first half of a PDF, and one whose bytes after the header are noise: poppler cannot read them.
    @Test(arguments: ["truncated.pdf", "corrupt.pdf"])
    func damagedIsUnreadable(name: String) async throws {
        let error = try await infoError(name)
        guard case .refused(let source, let code, let message)? = error else {
            Issue.record("not refused: \(String(describing: error))")
            return
        }
        #expect(source == "in.pdf")
        #expect(code == .unreadable)
        #expect(message.hasPrefix("in.pdf: corrupt or unreadable PDF: "), "\(message)")
        #expect(error?.code == "refused")
    }

    @Test(.enabled(if: PDFFixtures.hasEncrypted, "neither pypdf nor qpdf could encrypt the fixture"))
    func encryptedNeedsAPassword() async throws {
        #expect(try await infoError("encrypted.pdf") == .refused(
            source: "in.pdf", code: .encrypted, message: "in.pdf: the PDF is encrypted (it needs a password); save an unencrypted copy"
        ))
    }

    @Test func zeroPages() async throws {
        #expect(try await infoError("no-pages.pdf") == .refused(source: "in.pdf", code: .noPages, message: "in.pdf: the PDF has no pages"))
    }

    /// Text is not a PDF; a file over --max-bytes is refused by its size.
    @Test func notAPDFAndTooLarge() async throws {
        let text = TestFolder.path("not-a", extension: "pdf")
        try Data("hello, world\n".utf8).write(to: text)
        let notPDF = await withRenderer { renderer in
            await processError { () async throws(PDFProcessError) in try await renderer.info(file: text.path, name: "in.pdf") }
        }
        #expect(notPDF == .refused(source: "in.pdf", code: .notPDF, message: "in.pdf: not a PDF file"))
        let size = try PDFFixtures.bytes("sheets.pdf").count
        #expect(try await infoError("sheets.pdf", PDFRenderer(limits: PDFLimits(maxBytes: 1000))) == .refused(
            source: "in.pdf", code: .tooLarge, message: "in.pdf: \(size) bytes exceeds the limit of 1000 bytes"
        ))
    }

    /// A 14400 x 14400 pt page at 300 dpi is 60000 x 60000 = 3.6e9 pixels, over the 2e8 limit: refused before any
    /// pixel is allocated (the 14.4 GB buffer would be far over the child's 4 GiB address space, a crash).
    @Test func enormousPageIsRefusedBeforeRendering() async throws {
        let file = try PDFFixtures.path("enormous.pdf")
        let error = await withRenderer { renderer in
            await processError { () async throws(PDFProcessError) in try await renderer.render(file: file, page: 1, dpi: 300, name: "in.pdf") }
        }
        #expect(error == .refused(
            source: "in.pdf", code: .tooManyPixels, message: "in.pdf: page 1: 60000x60000 pixels exceeds the limit of 200000000 pixels"
        ))
    }

    /// A page side over 14400 pt refuses the document's info.
    @Test func pageOverTheSideLimit() async throws {
        #expect(try await infoError("huge.pdf") == .refused(
            source: "in.pdf", code: .pageTooLarge, message: "in.pdf: page 1 is 20000 x 300 pt, over the side limit of 14400 pt"
        ))
    }

    /// spin.pdf opens and measures at once, but drawing it is 10^9 fills: the child is killed when the 1.5 s time
    /// limit runs out, the call throws `timedOut`, and the child is gone (reaped) by then.
    @Test func spinningRendererTimesOut() async throws {
        let file = try PDFFixtures.path("spin.pdf")
        let info = try await PDFRenderer().info(file: file)
        #expect(info.pageCount == 1)
        let started = ContinuousClock.now
        let error = await withRenderer(PDFRenderer(timeLimit: .milliseconds(1500))) { renderer in
            await processError { () async throws(PDFProcessError) in try await renderer.render(file: file, page: 1, dpi: 72, name: "in.pdf") }
        }
        #expect(error == .timedOut(source: "in.pdf", seconds: 1.5))
        #expect(ContinuousClock.now - started >= .milliseconds(1500))
        #expect(error?.description == "in.pdf: the PDF took longer than the time limit of 1.5 s to draw; it was stopped")
    }

    /// With a CPU rlimit of 1 s and a time limit far away, the kernel stops the spinning child (SIGXCPU): `crashed`.
    @Test func cpuLimitStopsTheChild() async throws {
        let file = try PDFFixtures.path("spin.pdf")
        let renderer = PDFRenderer(processLimits: PDFProcessLimits(maxCPUSeconds: 1), timeLimit: .seconds(600))
        let error = await withRenderer(renderer) { renderer in
            await processError { () async throws(PDFProcessError) in try await renderer.render(file: file, page: 1, dpi: 72, name: "in.pdf") }
        }
        #expect(error == .crashed(source: "in.pdf", signal: SIGXCPU))
    }

    /// Page 1 at 1200 dpi is 10200 x 13200 pixels (within the pixel limit): a 538 MB buffer, over a 256 MiB address
    /// space: the allocation fails and the child aborts; `crashed`, whatever the signal.
    @Test func memoryLimitStopsTheChild() async throws {
        let file = try PDFFixtures.path("sheets.pdf")
        let renderer = PDFRenderer(processLimits: PDFProcessLimits(maxMemoryMiB: 256))
        let error = await withRenderer(renderer) { renderer in
            await processError { () async throws(PDFProcessError) in try await renderer.render(file: file, page: 1, dpi: 1200, name: "in.pdf") }
        }
        guard case .crashed(let source, let signal)? = error else {
            Issue.record("not crashed: \(String(describing: error))")
            return
        }
        #expect(source == "in.pdf")
        #expect(signal > 0)
    }

    /// Cancelling the task kills the child (started, as its pid shows, on a render that would spin for an hour).
    @Test func cancellationKillsTheChild() async throws {
        let file = try PDFFixtures.path("spin.pdf")
        let (started, starting) = AsyncStream.makeStream(of: Int32.self)
        var renderer = PDFRenderer(timeLimit: .seconds(600))
        renderer.spawned = { starting.yield($0) }
        let task = Task { [renderer] in
            await processError { () async throws(PDFProcessError) in try await renderer.render(file: file, page: 1, dpi: 72, name: "in.pdf") }
        }
        var pids = started.makeAsyncIterator()
        let pid = await pids.next()
        task.cancel()
        #expect(await task.value == .cancelled(source: "in.pdf"))
        if let pid { #expect(PDFProcessFixtures.isGone(pid)) } else { Issue.record("no child was started") }
    }

    /// No program at the path, or a file that is not a program: `programMissing`, nothing started.
    @Test func programMissing() async throws {
        let file = try PDFFixtures.path("sheets.pdf")
        for executable in ["/nonexistent/planmark-pdf", file] {
            let error = await processError { () async throws(PDFProcessError) in
                try await PDFRenderer(executable: executable).info(file: file)
            }
            #expect(error == .programMissing(path: executable))
        }
    }

    @Test func fileMissing() async throws {
        let path = TestFolder.path("missing", extension: "pdf").path
        let error = await withRenderer { renderer in
            await processError { () async throws(PDFProcessError) in try await renderer.info(file: path) }
        }
        #expect(error == .fileMissing(path: path))
        #expect(error?.description == "\(path): no such file")
    }
}

/// Children that do not answer as `planmark-pdf` does (shell scripts standing in for it): the parent reads no more
/// than the answer may be, kills the child, and says what was wrong.
@Suite(.hangGuard)
struct PDFRendererBadChildTests {
    /// A script at a new path that runs `body` with /bin/sh. It is made executable by `install`, a child process:
    /// a file this process had open for writing could be inherited for a moment by a child another test is
    /// starting, and exec then fails with ETXTBSY.
    func script(_ body: String) throws -> String {
        let text = TestFolder.path("fake-planmark-pdf", extension: "txt")
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: text)
        let program = TestFolder.path("fake-planmark-pdf").path
        let (status, output) = PDFFixtures.run("/usr/bin/install", ["-m", "755", text.path, program])
        guard status == 0 else { throw FixtureError(message: "install failed (\(status)): \(output)") }
        return program
    }

    /// The error of `call` on a renderer running `body`, with every child checked gone afterwards.
    func error(
        _ body: String, limits: PDFLimits = PDFLimits(), _ call: @escaping @Sendable (PDFRenderer) async throws(PDFProcessError) -> Void
    ) async throws -> PDFProcessError? {
        let pids = PIDs()
        var renderer = PDFRenderer(executable: try script(body), limits: limits, timeLimit: .seconds(600))
        renderer.spawned = { pids.add($0) }
        let error = await processError { () async throws(PDFProcessError) in try await call(renderer) }
        #expect(pids.all.count == 1, "no child started: \(String(describing: error))")
        for pid in pids.all { #expect(PDFProcessFixtures.isGone(pid), "child \(pid) is still there") }
        return error
    }

    static let header = #"printf 'P7\nWIDTH 2\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n'"#

    /// 100 MB of info for a one-page limit (16 KiB at most): killed once 16 KiB have come.
    @Test func endlessInfoIsCutOff() async throws {
        let error = try await error("exec head -c 100000000 /dev/zero", limits: PDFLimits(maxPages: 1)) { renderer throws(PDFProcessError) in
            _ = try await renderer.info(file: "x.pdf")
        }
        #expect(error == .childFailed(source: "x.pdf", reason: "the answer is longer than 16384 bytes"))
    }

    /// A 2 x 1 image is 8 bytes: 9 are one too many; 7 one too few; a header that says 3 x 1 is not the 2 x 1 asked for.
    @Test func imageOfTheWrongLength() async throws {
        let render: @Sendable (PDFRenderer) async throws(PDFProcessError) -> Void = { renderer throws(PDFProcessError) in
            _ = try await renderer.render(file: "x.pdf", page: 1, dpi: 72, x: 0, y: 0, width: 2, height: 1)
        }
        #expect(try await error(Self.header + "; exec head -c 9 /dev/zero", render)
            == .childFailed(source: "x.pdf", reason: "the image is longer than its header says"))
        #expect(try await error(Self.header + "; exec head -c 7 /dev/zero", render)
            == .childFailed(source: "x.pdf", reason: "the image ends after 7 of its 8 bytes"))
        #expect(try await error(Self.header.replacingOccurrences(of: "WIDTH 2", with: "WIDTH 3") + "; exec head -c 12 /dev/zero", render)
            == .childFailed(source: "x.pdf", reason: "a 3x1 image instead of 2x1"))
        #expect(try await error(Self.header + "; exec head -c 8 /dev/zero", render) == nil)
    }

    /// A whole page whose header says more pixels than the limit: refused from the header, before the buffer.
    @Test func imageOverThePixelLimit() async throws {
        let header = Self.header.replacingOccurrences(of: "WIDTH 2", with: "WIDTH 100000").replacingOccurrences(of: "HEIGHT 1", with: "HEIGHT 100000")
        let error = try await error(header + "; exec head -c 100000000 /dev/zero") { renderer throws(PDFProcessError) in
            _ = try await renderer.render(file: "x.pdf", page: 1, dpi: 72)
        }
        #expect(error == .childFailed(source: "x.pdf", reason: "a 100000x100000 image is over the limit of 200000000 pixels"))
    }

    /// Exit 65 without a refusal line; an exit status planmark-pdf never uses, with its line.
    @Test func unknownStatuses() async throws {
        let info: @Sendable (PDFRenderer) async throws(PDFProcessError) -> Void = { renderer throws(PDFProcessError) in
            _ = try await renderer.info(file: "x.pdf")
        }
        #expect(try await error("echo 'Syntax Error: poppler noise' >&2; exit 65", info)
            == .childFailed(source: "x.pdf", reason: "exit status 65 without a refusal line"))
        #expect(try await error("echo 'planmark-pdf: x.pdf: odd' >&2; exit 3", info)
            == .childFailed(source: "x.pdf", reason: "exit status 3: x.pdf: odd"))
        // The child's own line is found after poppler's.
        #expect(try await error("echo 'planmark-pdf: not_pdf: x.pdf: not a PDF file' >&2; echo 'Syntax Error: later' >&2; exit 65", info)
            == .refused(source: "x.pdf", code: .notPDF, message: "x.pdf: not a PDF file"))
    }
}

/// Pids seen by a `spawned` hook, from any thread.
final class PIDs: Sendable {
    private let pids = Mutex<[Int32]>([])

    func add(_ pid: Int32) { pids.withLock { $0.append(pid) } }

    var all: [Int32] { pids.withLock { $0 } }
}
