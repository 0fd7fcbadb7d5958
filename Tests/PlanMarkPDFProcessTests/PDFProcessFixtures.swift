import Foundation
import PlanMarkPDFProcess
import PlanMarkPDFTestSupport
import PlanMarkTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built `planmark-pdf`, and what independent tools (pdfinfo, pypdf) say about the fixtures.
enum PDFProcessFixtures {
    /// `planmark-pdf` beside the test binary (`PDFRenderer.defaultExecutable()`: the test target depends on it, so
    /// `swift build --build-tests` builds it into the same folder).
    static let executable = PDFRenderer.defaultExecutable()

    /// Why these tests cannot run here, or nil.
    static let missing: String? = {
        if let tools = PDFFixtures.missingTools { return tools }
        guard access(executable, X_OK) == 0 else { return "\(executable) is not built (swift build --build-tests)" }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pdfinfo") else { return "pdfinfo is not installed" }
        return nil
    }()

    /// Each page's size in points as pdfinfo prints it (`Page    1 size: 612 x 792 pts`).
    static func pdfinfoSizes(_ name: String, pages: Int) throws -> [(Double, Double)] {
        let (status, output) = PDFFixtures.run("/usr/bin/pdfinfo", ["-f", "1", "-l", String(pages), try PDFFixtures.path(name)])
        guard status == 0 else { throw FixtureError(message: "pdfinfo failed (\(status)): \(output)") }
        return output.split(separator: "\n").filter { $0.hasPrefix("Page ") && $0.contains(" size:") }.map { line in
            let words = line.split(separator: " ")
            let size = words.firstIndex(of: "size:")!
            return (Double(words[size + 1])!, Double(words[size + 3])!)
        }
    }

    /// pdfinfo's page count (`Pages:          4`).
    static func pdfinfoPageCount(_ name: String) throws -> Int {
        let (status, output) = PDFFixtures.run("/usr/bin/pdfinfo", [try PDFFixtures.path(name)])
        guard status == 0 else { throw FixtureError(message: "pdfinfo failed (\(status)): \(output)") }
        let line = output.split(separator: "\n").first { $0.hasPrefix("Pages:") }
        return Int(line?.split(separator: " ").last ?? "") ?? -1
    }

    /// The sheet names pypdf reads: for each page, the first outline title that goes to it (the outline walked depth
    /// first), else its page label unless that is its own number. By page number (as strings: JSON keys).
    static func pypdfNames(_ name: String) throws -> [String: String] {
        let script = """
            import json, sys, pypdf
            reader = pypdf.PdfReader(sys.argv[1])
            names = {}
            def walk(items):
                for item in items:
                    if isinstance(item, list):
                        walk(item)
                    else:
                        names.setdefault(reader.get_destination_page_number(item) + 1, item.title.strip())
            walk(reader.outline)
            for index, label in enumerate(reader.page_labels):
                if label.strip() and label.strip() != str(index + 1):
                    names.setdefault(index + 1, label.strip())
            sys.stdout.write(json.dumps({str(k): v for k, v in names.items()}))
            """
        let (status, output) = PDFFixtures.run(PDFFixtures.python, ["-c", script, try PDFFixtures.path(name)])
        guard status == 0, let names = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: String] else {
            throw FixtureError(message: "pypdf failed (\(status)): \(output)")
        }
        return names
    }

    /// True when `pid` is no process at all any more: not running, and not a zombie waiting to be reaped by us.
    static func isGone(_ pid: Int32) -> Bool {
        let noProcess = kill(pid, 0) == -1 && errno == ESRCH
        let notOurs = waitpid(pid, nil, WNOHANG) == -1 && errno == ECHILD
        return noProcess && notOurs
    }
}

/// Runs `planmark-pdf` itself (not through `PDFRenderer`), as a person at a shell would.
struct ChildCommand {
    /// What a run left.
    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    /// Runs `planmark-pdf` with `arguments` to its end.
    static func run(_ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PDFProcessFixtures.executable)
        process.arguments = arguments
        let out = ChildProcess.pipe(), err = ChildProcess.pipe()
        process.standardOutput = out
        process.standardError = err
        try ChildProcess.run(process)
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = out.fileHandleForReading.readBytesToEnd()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readBytesToEnd()
            group.leave()
        }
        process.waitUntilExit()
        group.wait()
        return Output(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// `body`'s `PDFProcessError`, or nil when it returned.
func processError<T>(_ body: () async throws(PDFProcessError) -> T) async -> PDFProcessError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
