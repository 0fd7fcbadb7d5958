import ArgumentParser
import PlanMarkPDFCore
import PlanMarkPDFProcess
import PlanMarkRender
import PlanMarkSheets
import PlanMarkStore

/// `--dpi` of the commands that take PDFs: the resolution a page's pixels are counted at (the drawing's pixel size
/// is the page's size at it, rounded up).
struct PDFResolutionOption: ParsableArguments {
    /// The default: 300 dpi, the resolution drawings are printed and scanned at.
    static let defaultDPI = 300

    @Option(name: .long, help: ArgumentHelp("For a PDF: the resolution its page is counted in pixels at (\(PDFSource.dpiRange.lowerBound)...\(PDFSource.dpiRange.upperBound); default \(PDFResolutionOption.defaultDPI)).",
                                            valueName: "dpi"))
    var dpi: Int?

    func validate() throws {
        if let dpi, !PDFSource.dpiRange.contains(dpi) {
            throw ValidationError("--dpi must be in \(PDFSource.dpiRange.lowerBound)...\(PDFSource.dpiRange.upperBound)")
        }
    }

    /// The resolution to use.
    var value: Int { dpi ?? Self.defaultDPI }
}

/// The pages of a PDF as drawings' images: measured, and proven drawable, by `planmark-pdf` (a child process with a
/// time limit: a PDF that crashes or hangs the PDF library costs the command, not the store) before anything is stored.
struct PDFPages {
    /// Whether `bytes` are a PDF: they start with `%PDF-`, the store's own test (`StoreError.notPDF`).
    /// - Complexity: O(1).
    static func isPDF(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("%PDF-".utf8)) }

    /// The long side of the page drawn to prove it draws: small, since every drawing operation of the page is run at
    /// any resolution, and what is proven is that they run.
    static let proofSide = 512

    /// The PDF's path.
    let file: String
    /// The pages, with their sizes at `dpi` and their sheet names.
    let info: PDFDocumentInfo
    /// The resolution the sizes are at.
    let dpi: Int
    /// The child process that measures and draws them.
    let renderer: PDFRenderer

    /// Reads the PDF's pages at `dpi`, under `maxPixels` (a page with more pixels at `dpi` is refused when it is used).
    /// - Throws: `CommandFailure` (65 a PDF that cannot be read or ran out of time, 66 missing, 69 no `planmark-pdf`).
    /// - Complexity: O(bytes + pages) in the child.
    init(file: String, dpi: Int, maxPixels: Int) async throws(CommandFailure) {
        self.file = file
        self.dpi = dpi
        var limits = PDFLimits()
        limits.maxPixels = maxPixels
        renderer = PDFRenderer(limits: limits)
        do {
            info = try await renderer.info(file: file, dpi: Double(dpi))
        } catch {
            throw CommandFailure(pdf: error)
        }
    }

    /// Page `number` (from 1) as a drawing's image: its size at `resolution` (default: `dpi`, the one the pages were
    /// read at), after the page is drawn once at a small size to prove it draws.
    /// - Throws: `CommandFailure`: 64 no such page, 65 too many pixels at that resolution or a page that does not draw.
    /// - Complexity: O(the page's drawing operations) in the child.
    func image(page number: Int, dpi resolution: Int? = nil) async throws(CommandFailure) -> PDFPageImage {
        guard (1...info.pageCount).contains(number) else {
            throw CommandFailure(place: "--page", message: "\(file) has \(counted(info.pageCount, "page")); there is no page \(number)", code: Exit.usage)
        }
        let page = info.pages[number - 1]
        let dpi = resolution ?? self.dpi
        var (width, height) = (page.width, page.height)
        if dpi != self.dpi {
            guard let w = PDFPixels.side(points: page.widthPoints, dpi: Double(dpi)), let h = PDFPixels.side(points: page.heightPoints, dpi: Double(dpi)) else {
                throw CommandFailure(place: file, message: "page \(number) has no size in pixels at \(dpi) dpi", code: Exit.dataError)
            }
            (width, height) = (w, h)
        }
        guard width * height <= renderer.limits.maxPixels else {
            throw CommandFailure(place: file, message: "page \(number) is \(width)x\(height) px at \(dpi) dpi, over --max-pixels \(renderer.limits.maxPixels); use a lower --dpi",
                                 code: Exit.dataError)
        }
        let proofDPI = Double(dpi) * min(1, Double(Self.proofSide) / Double(max(width, height)))
        do {
            _ = try await renderer.render(file: file, page: number, dpi: proofDPI)
        } catch {
            throw CommandFailure(pdf: error)
        }
        return PDFPageImage(page: number, dpi: dpi, width: width, height: height)
    }
}

extension CommandFailure {
    /// A drawing's sheet that could not be had as pixels: a PNG's faults as `render`'s, a PDF's as below, 73 for the
    /// temporary file the PDF could not be written to.
    init(sheet error: SheetError) {
        switch error {
        case .png(let error): self.init(render: error)
        case .pdf(let error): self.init(pdf: error)
        case .scratch: self.init(text: error.description, code: Exit.cannotCreate)
        }
    }

    /// 65 a PDF refused, that crashed the renderer or ran out of time, 66 missing, 69 no `planmark-pdf`, 74 I/O.
    init(pdf error: PDFProcessError) {
        switch error {
        case .refused(_, let code, _) where code == .pageOutOfRange || code == .invalidArea:
            self.init(text: error.description, code: Exit.usage)
        case .refused, .timedOut, .crashed:
            self.init(text: error.description, code: Exit.dataError)
        case .fileMissing:
            self.init(text: error.description, code: Exit.noInput)
        case .programMissing:
            self.init(text: error.description, code: Exit.unavailable)
        case .io, .childFailed, .cancelled:
            self.init(text: error.description, code: Exit.ioError)
        }
    }
}
