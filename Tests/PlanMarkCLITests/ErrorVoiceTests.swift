import Foundation
import Testing

/// One bad case for each way a command can fail, each expected line worked out from the rule: one line
/// `planmark: WHERE: what` on stderr (WHERE a file[:line], an option, a drawing, or the command for its
/// arguments) and the documented exit code (docs/errors.md: 1 refused, 64 usage, 65 bad input data, 66 missing
/// input, 73 cannot create the output).
struct VoiceCase: CustomTestStringConvertible, Sendable {
    /// The arguments; `--store STORE` is added when `store` is true.
    var arguments: [String]
    var store = true
    var stdin: String?
    /// The whole of stderr.
    var line: String
    var status: Int32
    var testDescription: String { arguments.joined(separator: " ") }
}

@Suite struct ErrorVoiceTests {
    static let cases: [VoiceCase] = [
        // The argument parser's own errors: usage, WHERE the command.
        VoiceCase(arguments: ["resolve", "A", "1", "--no-such-option"],
                  line: "planmark: resolve: unknown option '--no-such-option' (see 'planmark resolve --help')", status: 64),
        // A command's own check of its arguments (a ValidationError).
        VoiceCase(arguments: ["crs", "to-pixel", "--zoom", "1", "5"], store: false,
                  line: "planmark: crs to-pixel: give two numbers, or none to read pairs from stdin (see 'planmark crs to-pixel --help')",
                  status: 64),
        // A number too large for the zoom is the same fault, with the same words and code, in crs and mark.
        VoiceCase(arguments: ["crs", "to-pixel", "--zoom", "64", "1e300", "1"], store: false,
                  line: "planmark: crs to-pixel: 1e+300 1.0 converts to a number too large to represent at zoom 64.0", status: 64),
        VoiceCase(arguments: ["mark", "A", "--lat", "1e300", "--lng", "1", "--zoom", "64"],
                  line: "planmark: mark: 1e+300 1.0 converts to a number too large to represent at zoom 64.0", status: 64),
        // A bad stdin line: WHERE is `-:LINE`.
        VoiceCase(arguments: ["crs", "to-pixel", "--zoom", "1"], store: false, stdin: "1 2\n1 2 3\n",
                  line: "planmark: -:2: expected two numbers, found 3 fields", status: 65),
        // Store faults: WHERE the drawing.
        VoiceCase(arguments: ["mark", "B", "50", "50"], line: "planmark: drawing \"B\": no such drawing", status: 66),
        VoiceCase(arguments: ["resolve", "A", "999"], line: "planmark: drawing \"A\": no marker 999", status: 66),
        VoiceCase(arguments: ["render", "A", "--around", "999", "-o", "x.png"], line: "planmark: drawing \"A\": no marker 999", status: 66),
        VoiceCase(arguments: ["mark", "A", "5", "5"], line: "planmark: marker at (5.0, 5.0): refused: outside-allowed-area", status: 1),
        // A missing file, whichever command reads it.
        VoiceCase(arguments: ["import", "A", "nosuch.csv"], line: "planmark: nosuch.csv: no such file", status: 66),
        VoiceCase(arguments: ["validate", "--regions", "nosuch.geojson", "m.csv"], store: false,
                  line: "planmark: nosuch.geojson: no such file", status: 66),
        VoiceCase(arguments: ["render", "--image", "nosuch.png", "-o", "x.png"], store: false,
                  line: "planmark: nosuch.png: no such file", status: 66),
        // A malformed file: WHERE is FILE:LINE.
        VoiceCase(arguments: ["import", "A", "bad.csv"],
                  line: "planmark: bad.csv:1: unknown column \"foo\" (expected a header naming x,y or lat,lng, and optionally id, note, author, uuid, status, category, priority, assignee, due, capturedAt)",
                  status: 65),
        // An option naming something that is not there.
        VoiceCase(arguments: ["render", "--image", "plan.png", "--markers", "m.csv", "--around", "999", "-o", "x.png"], store: false,
                  line: "planmark: --around: no marker 999", status: 66),
        // An output that cannot be created.
        VoiceCase(arguments: ["render", "--image", "plan.png", "-o", "no-folder/x.png"], store: false,
                  line: "planmark: no-folder/x.png: cannot create: No such file or directory", status: 73),
    ]

    @Test(arguments: cases)
    func oneLineAndTheDocumentedCode(_ voice: VoiceCase) async throws {
        let sandbox = try StoreSandbox.withDrawing()
        _ = try sandbox.png()
        _ = try sandbox.file("m.csv", "id,x,y\nM1,50,50\n")
        _ = try sandbox.file("bad.csv", "foo,bar\n1,2\n")
        let stdin = voice.stdin.map { Data($0.utf8) }
        let result = voice.store ? try sandbox.run(voice.arguments, stdin: stdin)
                                 : try CLIRunner.run(voice.arguments, in: sandbox.folder, stdin: stdin)
        #expect(result.stderr == voice.line + "\n")
        #expect(result.status == voice.status)
    }

    @Test func versionAndHelp() async throws {
        let version = try CLIRunner.run(["--version"])
        #expect(version.status == 0 && version.stdout == "planmark 1.1.0\n" && version.stderr.isEmpty)
        // Help is still the argument parser's text, on stdout.
        let help = try CLIRunner.run(["mark", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: planmark mark") && help.stderr.isEmpty)
    }
}
