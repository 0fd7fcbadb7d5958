import ArgumentParser
import PlanMarkPDF
import PlanMarkPDFCore
import PlanMarkRender

/// `planmark-pdf render FILE --page N --dpi D [--x X --y Y --width W --height H]`: one rectangle of one page as a
/// `PDFRaster` stream (PAM, 8-bit RGBA) on standard output.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a rectangle of a page (default: the whole page) at --dpi, as 8-bit RGBA (Netpbm PAM) on stdout.",
        discussion: """
        The rectangle is in pixels of the whole page drawn at --dpi (ceil(points * dpi / 72) a side), from its \
        top-left corner; what lies outside the page is white. --width and --height default to the page's size in \
        pixels. The page is drawn on white paper from its vectors, \
        so any rectangle at any resolution is sharp. The render's pixels are checked against --max-pixels before any \
        is allocated. Output: P7 WIDTH W HEIGHT H DEPTH 4 MAXVAL 255 TUPLTYPE RGB_ALPHA ENDHDR (one field a line), \
        then W * H * 4 bytes, rows top to bottom (e.g. planmark-pdf render plan.pdf --page 1 --dpi 72 | pamtopng > page.png).
        """
    )

    @Argument(help: "The PDF file.")
    var file: String

    @Option(help: ArgumentHelp("The page, from 1.", valueName: "number"))
    var page: Int

    @Option(help: ArgumentHelp("The resolution, in pixels per inch (72: one pixel a point).", valueName: "dpi"))
    var dpi: Double

    @Option(help: ArgumentHelp("The rectangle's left edge, in pixels of the page at --dpi.", valueName: "pixels"))
    var x = 0

    @Option(help: ArgumentHelp("The rectangle's top edge, in pixels of the page at --dpi.", valueName: "pixels"))
    var y = 0

    @Option(help: ArgumentHelp("The rectangle's width in pixels (default: the page's).", valueName: "pixels"))
    var width: Int?

    @Option(help: ArgumentHelp("The rectangle's height in pixels (default: the page's).", valueName: "pixels"))
    var height: Int?

    @OptionGroup var options: LimitOptions

    func run() throws {
        try ChildIO.reporting { () throws(ChildFailure) in
            let document = try options.open(file)
            let image: RGBAImage
            do throws(PDFError) {
                let size = try document.size(page: page, dpi: dpi, width: width, height: height)
                image = try document.render(page: page, dpi: dpi, x: x, y: y, width: size.width, height: size.height)
            } catch {
                throw ChildFailure(error)
            }
            try ChildIO.writeOut(PDFRaster.header(width: image.width, height: image.height))
            try ChildIO.writeOut(image.pixels)
        }
    }
}
