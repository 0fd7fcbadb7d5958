import Foundation
import PlanMarkTestSupport
import Testing

/// Runs the built `planmark` binary as a user would, and captures what it prints.
struct CLIRunner {
    /// What a run produced.
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
    }

    /// The `planmark` executable next to the test bundle (same build folder, any scratch path).
    static let binary: URL = {
        var candidates: [URL] = []
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("planmark"))
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("planmark"))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("planmark"))
        for bundle in Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("planmark"))
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// The repository's root folder.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `planmark` (or `executable`) with `arguments` in `directory`, feeding `stdin`.
    static func run(_ arguments: [String], in directory: URL? = nil, stdin: Data? = nil, environment: [String: String] = [:],
                    executable: URL = binary) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["CI"] = "true"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let outPipe = ChildProcess.pipe(), errPipe = ChildProcess.pipe(), inPipe = ChildProcess.pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try ChildProcess.run(process)
        // Read both pipes concurrently so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = outPipe.fileHandleForReading.readBytesToEnd()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = errPipe.fileHandleForReading.readBytesToEnd()
            group.leave()
        }
        if let stdin { try? inPipe.fileHandleForWriting.write(contentsOf: stdin) }
        try inPipe.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return Output(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self),
                      stdoutData: outData)
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        try TestFolder.make("planmark-cli")
    }
}
