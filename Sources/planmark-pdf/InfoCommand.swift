import ArgumentParser
import PlanMarkPDF
import PlanMarkPDFCore

/// `planmark-pdf info FILE [--dpi D]`: the PDF's pages as one line of JSON (`PDFDocumentInfo`).
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "The PDF's pages as one JSON object: sizes in points and in pixels at --dpi, sheet names.",
        discussion: """
        Prints {"dpi":D,"pageCount":N,"pages":[{"number":1,"widthPoints":612,"heightPoints":792,"width":2550,\
        "height":3300,"name":"A-101"},...]} on one line. Sizes in points are as displayed (after the page's \
        rotation); in pixels, ceil(points * dpi / 72). A page's name is its first outline (bookmark) title, else its \
        page label unless that is just its number, else null; at most \(PDFDocumentInfo.maxNameScalars) characters. \
        A page over --max-page-side refuses the whole document (page_too_large).
        """
    )

    @Argument(help: "The PDF file.")
    var file: String

    @Option(help: ArgumentHelp("The resolution of the pixel sizes, in pixels per inch.", valueName: "dpi"))
    var dpi = 300.0

    @OptionGroup var options: LimitOptions

    func run() throws {
        try ChildIO.reporting { () throws(ChildFailure) in
            let document = try options.open(file)
            let info: PDFDocumentInfo
            do throws(PDFError) {
                let names = document.sheetNames()
                let pages = try (1...document.pageCount).map { page throws(PDFError) in
                    let points = try document.pageSize(page: page)
                    let pixels = try document.pixelSize(page: page, dpi: dpi)
                    return PDFPageInfo(
                        number: page, widthPoints: points.width, heightPoints: points.height, width: pixels.width, height: pixels.height,
                        name: names[page].map(PDFPageInfo.shortened)
                    )
                }
                info = PDFDocumentInfo(dpi: dpi, pages: pages)
            } catch {
                throw ChildFailure(error)
            }
            try ChildIO.writeOut(Array((info.json + "\n").utf8))
        }
    }
}
