import ArgumentParser
import PlanMarkFormats
import PlanMarkPDFCore
import PlanMarkStore

/// What `sheets add` and `sheets revise` share: reading the set, and which failures skip a page rather than stop.
enum SheetSet {
    /// The set's bytes and pages at `dpi`.
    /// - Throws: `ExitCode` after the one-line error: 66 no such file, 65 not a PDF or a PDF that cannot be read,
    ///   69 planmark-pdf missing, 74 I/O.
    /// - Complexity: O(bytes + pages).
    static func read(_ file: String, dpi: Int, maxPixels: Int) async throws -> ([UInt8], PDFPages) {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.readAll(path: file)
            guard PDFPages.isPDF(bytes) else { throw StoreError.notPDF(path: file, detail: "it does not start with %PDF-") }
            return (bytes, try await PDFPages(file: file, dpi: dpi, maxPixels: maxPixels))
        } catch let error as FormatError where error.kind == .missingInput {
            throw fail(StoreError.missingImage(path: file))
        } catch {
            throw fail(error)
        }
    }

    /// Whether `failure` concerns one page (its name, its drawing, its content), so the set goes on without it; a
    /// missing store, project or program, or the store's I/O, stops the command.
    static func skipsThePage(_ failure: CommandFailure) -> Bool {
        [Exit.invalid, Exit.dataError, Exit.usage].contains(failure.code)
    }

    /// The exit status of a set with pages skipped for `a` and `b`: a page that cannot be used (65, 64) over a name
    /// that exists (1).
    static func worse(_ a: Int32, _ b: Int32) -> Int32 {
        func rank(_ code: Int32) -> Int { code == 0 ? 0 : code == Exit.invalid ? 1 : 2 }
        return rank(b) > rank(a) ? (b == Exit.usage ? Exit.dataError : b) : a
    }

    /// Does `work` for each page of `file` in order, each with its line (named by `SheetLine.name`, sized at the set's
    /// dpi, for `work` to complete), and prints each line when its page is done (text) or all of them at the end
    /// (`--format json`); then, when a page was skipped, says how many on stderr and exits with the worst status of them
    /// (`worse`). A failure that concerns one
    /// page (`skipsThePage`, or code 0 for a page only listed) becomes its line's reason; any other stops the command.
    /// - Complexity: O(pages) besides `work`.
    static func forEachPage(of pages: PDFPages, prefix: String, format: TextOrJSON,
                            _ work: (PDFPageInfo, inout SheetLine) async throws -> Void) async throws {
        let out = StandardOutput()
        var lines: [SheetLine] = []
        var worst: Int32 = 0
        for page in pages.info.pages {
            var line = SheetLine(page: page.number, name: SheetLine.name(of: page, file: pages.file, prefix: prefix), width: page.width,
                                 height: page.height)
            do {
                try await work(page, &line)
            } catch {
                let failure = CommandFailure(error)
                guard failure.code == 0 || skipsThePage(failure) else { throw failure }
                line.done = nil
                line.reason = failure.message
                worst = worse(worst, failure.code)
            }
            lines.append(line)
            if format == .text {
                try out.write(line.text)
                try out.flush()
            }
        }
        if format == .json { try out.write(SheetLine.report(lines, file: pages.file, json: true)) }
        try out.flush()
        if worst != 0 {
            let skipped = lines.filter { $0.done == nil && $0.reason != nil }.count
            throw fail(CommandFailure(place: pages.file, message: "\(skipped) of \(counted(lines.count, "page")) not stored (each line says why)", code: worst))
        }
    }
}
