import ArgumentParser
import PlanMarkPDFCore

/// `planmark-pdf`: one PDF's info, or one rectangle of one page drawn, in a process of its own. The front doors run
/// it through PlanMarkPDFProcess's `PDFRenderer` so that poppler crashing, hanging or eating memory on a hostile file
/// costs this process only, never the server or the CLI. It is also a tool a person can run.
@main
struct PlanMarkPDFCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: PDFChild.programName,
        abstract: "A PDF's pages and sheet names (info), any rectangle of a page drawn at any resolution (render), a page's tile pyramid (pyramid), or a page's vectors as CairoScript (script).",
        discussion: """
        Each run opens one PDF under limits checked before the work they bound (file size, pages, page side, pixels \
        of the render), after setting its own rlimits (address space --max-memory, CPU time --max-cpu-seconds; no core \
        files), so a runaway PDF library is killed by the kernel. The front doors run it through PDFRenderer \
        (PlanMarkPDFProcess) as a child process with a time limit.
        Errors are one line on stderr: planmark-pdf: CODE: FILE: what for a refused PDF (CODE is one of \
        \(PDFError.Code.allCases.map(\.rawValue).joined(separator: ", "))), else planmark-pdf: WHERE: what. \
        The PDF library may write lines of its own before it. \
        Exit status: 0 ok, 64 bad usage, 65 the PDF was refused, 66 no such file, 74 I/O error; killed by a signal \
        when it crashed or ran out of CPU time or memory.
        """,
        subcommands: [InfoCommand.self, RenderCommand.self, PyramidCommand.self, ScriptCommand.self]
    )
}
