import ArgumentParser
import PlanMarkPDF
import PlanMarkPDFCore
import PlanMarkPDFVectors

/// `planmark-pdf script FILE --page N`: the page's vectors as CairoScript on standard output, for the report's vector
/// sheet (PlanMarkPDFVectors' `PDFVectorPage` replays it).
struct ScriptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "script",
        abstract: "Write a page's vectors as CairoScript on stdout (its lines, fills, images and text, fonts as TrueType).",
        discussion: """
        The page is drawn by poppler onto a cairo script surface its size in points (origin top-left), in print mode \
        (lines as thin as the PDF says, images at their own resolution). Before anything is written the script is \
        checked as the report checks it (only what cairo's script surface writes: no file, loop or procedure \
        operators; one page; fonts of type 42, TrueType or OpenType; at most --max-decoded-bytes of images and \
        compressed data) and replayed into a PDF surface that writes nowhere, so that a page whose fonts or drawing \
        make cairo, FreeType or the script interpreter fail costs this process. A page that cannot be kept as \
        vectors (a Type 1, CFF or Type 3 font; a script over --max-script-bytes) is refused (not_vectors): draw it \
        as pixels (render) instead.
        """
    )

    @Argument(help: "The PDF file.")
    var file: String

    @Option(help: ArgumentHelp("The page, from 1.", valueName: "number"))
    var page: Int

    @Option(name: .customLong(PDFChild.Option.maxScriptBytes), help: ArgumentHelp("The largest script written.", valueName: "bytes"))
    var maxScriptBytes = PDFScriptLimits.defaultMaxBytes

    @Option(name: .customLong(PDFChild.Option.maxDecodedBytes),
            help: ArgumentHelp("The most bytes of images and compressed data the script may declare.", valueName: "bytes"))
    var maxDecodedBytes = PDFScriptLimits.defaultMaxDecodedBytes

    @OptionGroup var options: LimitOptions

    func validate() throws {
        guard maxScriptBytes >= 1, maxDecodedBytes >= 0 else {
            throw ValidationError("--max-script-bytes must be 1 or more, --max-decoded-bytes 0 or more")
        }
    }

    func run() throws {
        try ChildIO.reporting { () throws(ChildFailure) in
            let document = try options.open(file)
            let limits = PDFScriptLimits(maxBytes: maxScriptBytes, maxDecodedBytes: maxDecodedBytes)
            let script: [UInt8]
            do throws(PDFError) {
                script = try document.script(page: page, maxBytes: limits.maxBytes)
            } catch {
                throw ChildFailure(error)
            }
            do throws(PDFScriptError) {
                try PDFVectorPage(script: script, limits: limits).trial()
            } catch {
                throw ChildFailure(.notVectors(source: document.source, page: page, reason: error.description))
            }
            try ChildIO.writeOut(script)
        }
    }
}
