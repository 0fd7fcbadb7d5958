import Foundation
import PlanMarkTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Several real processes writing one store at once, and a process killed in the middle of an import.
@Suite(.serialized) struct StoreConcurrencyTests {
    /// Starts `sh -c script` in `folder` and returns the running process with its stdout/stderr pipes.
    func start(_ script: String, in folder: URL) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = "true"
        process.environment = environment
        let out = ChildProcess.pipe(), err = ChildProcess.pipe()
        process.standardOutput = out
        process.standardError = err
        try ChildProcess.run(process)
        return (process, out, err)
    }

    /// 4 processes x 250 `mark` calls on one drawing: 1000 markers numbered exactly 1...1000, and each
    /// process saw its own numbers increase.
    @Test func fourProcessesMarkAThousand() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        let script = "for i in $(seq 250); do '\(CLIRunner.binary.path)' mark A $((20 + i)) 50 --store '\(sandbox.store)' || exit 1; done"
        let runs = try (0..<4).map { _ in try start(script, in: sandbox.folder) }
        var all: [Int] = []
        for (process, out, err) in runs {
            let stdout = String(decoding: out.fileHandleForReading.readBytesToEnd(), as: UTF8.self)
            let stderr = String(decoding: err.fileHandleForReading.readBytesToEnd(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(stderr)")
            let numbers = stdout.split(separator: "\n").compactMap { Int($0) }
            #expect(numbers.count == 250)
            #expect(numbers == numbers.sorted())
            all += numbers
        }
        #expect(all.sorted() == Array(1...1000))
        let stored = try sandbox.markers().map { $0["number"] as? Int }
        #expect(stored == Array(1...1000))
    }

    /// Reads an import file the way the test wrote it (a header, then `x,y` rows), independently of
    /// the importer: the positions the store must hold for it, in file order.
    static func positions(inCSV path: String) throws -> [[Double]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "x,y")
        return lines.dropFirst().map { line in line.split(separator: ",").map { Double(String($0))! } }
    }

    /// Two imports (of different files) and two `mark` loops at once: nothing lost, no number
    /// skipped, each import's numbers consecutive and holding its own file's positions in file order.
    @Test func importsAndMarksInterleave() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        // Two files whose rows are distinct from each other and from the marks at (30, 30).
        var first = "x,y\n", second = "x,y\n"
        for i in 0..<5000 {
            first += "\(20 + i % 300).25,\(20 + i % 250).5\n"
            second += "\(40 + (i * 7) % 330).75,\(15 + (i * 3) % 260)\n"
        }
        let files = [try sandbox.file("first.csv", first), try sandbox.file("second.csv", second)]
        let binary = CLIRunner.binary.path
        let importScripts = files.map { "'\(binary)' import A '\($0)' --store '\(sandbox.store)'" }
        let markScript = "for i in $(seq 40); do '\(binary)' mark A 30 30 --store '\(sandbox.store)' || exit 1; done"
        let runs = try [importScripts[0], markScript, importScripts[1], markScript].map { try start($0, in: sandbox.folder) }
        for (process, out, err) in runs {
            _ = out.fileHandleForReading.readBytesToEnd()
            let stderr = String(decoding: err.fileHandleForReading.readBytesToEnd(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(stderr)")
        }
        let markers = try sandbox.markers()
        #expect(markers.map { $0["number"] as? Int } == Array(1...10080))
        let stored = markers.map { [($0["x"] as? NSNumber)?.doubleValue ?? .nan, ($0["y"] as? NSNumber)?.doubleValue ?? .nan] }
        // The expected positions come from the files themselves, parsed here.
        let expected = try files.map { try Self.positions(inCSV: $0) }
        #expect(expected.allSatisfy { $0.count == 5000 })
        let history = try sandbox.run(["history", "A", "--format", "jsonl"]).stdout.split(separator: "\n")
        let ranges = history.compactMap { line -> ClosedRange<Int>? in
            let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            guard let last = object["lastNumber"] as? Int, let first = object["number"] as? Int else { return nil }
            return first...last
        }
        try #require(ranges.count == 2 && ranges.allSatisfy { $0.count == 5000 && $0.lowerBound >= 1 && $0.upperBound <= 10080 },
                     "import ranges \(ranges)")
        // Each range holds one file's rows in order; together the two ranges hold both files.
        var matched: [Int] = []
        for range in ranges {
            let held = Array(stored[(range.lowerBound - 1)..<range.upperBound])
            let file = expected.firstIndex { $0 == held }
            #expect(file != nil, "markers \(range) hold neither file's positions in order")
            if let file { matched.append(file) }
        }
        #expect(matched.sorted() == [0, 1], "both import ranges matched \(matched)")
        // The other 80 markers are the marks.
        let inRanges = Set(ranges.flatMap { Array($0) })
        let marks = markers.indices.filter { !inRanges.contains($0 + 1) }.map { stored[$0] }
        #expect(marks.count == 80 && marks.allSatisfy { $0 == [30, 30] })
    }

    #if os(Linux)  // waits through inotify (FolderWatch)
    /// `kill -9` while an import writes: the store is as it was before, and works on.
    @Test func killDuringImportLeavesTheStoreAsItWas() async throws {
        let sandbox = try StoreSandbox.withDrawing()
        #expect(try sandbox.run(["mark", "A", "50", "50"]).stdout == "1\n")
        let before = try sandbox.snapshot()
        var csv = "x,y,note\n"
        csv.reserveCapacity(300_000 * 24)
        for i in 0..<300_000 { csv += "\(20 + i % 360),\(20 + (i / 360) % 260),n\(i)\n" }
        let file = try sandbox.file("big.csv", csv)
        let wal = sandbox.store + "-wal"
        func walSize() -> Int { (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0 }
        let baseline = walSize()
        // Watch the sandbox folder before the import starts, so no write to the WAL goes unseen.
        let watch = try FolderWatch(sandbox.folder.path)
        let (process, out, _) = try start("exec '\(CLIRunner.binary.path)' import A '\(file)' --store '\(sandbox.store)'", in: sandbox.folder)
        // Once the import's transaction has written several MB to the WAL, kill it. Woken by each
        // write in the folder, or by the import's stdout closing (it finished); 60 s bounds a hang.
        let killedMidway = watch.wait(untilEndOf: out.fileHandleForReading.fileDescriptor, timeout: 60) {
            walSize() > baseline + (4 << 20)
        }
        if killedMidway { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(killedMidway, "the import finished before it could be killed")
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(try sandbox.snapshot() == before)
        // The store works on: the counter was not advanced by the killed import.
        #expect(try sandbox.run(["mark", "A", "60", "60"]).stdout == "2\n")
        let small = try sandbox.file("small.csv", "x,y\n20,20\n")
        #expect(try sandbox.run(["import", "A", small]).stdout == "1\n")
        #expect(try sandbox.markers().map { $0["number"] as? Int } == [1, 2, 3])
    }
    #endif
}

#if os(Linux)
/// Writes and creations in one folder, through inotify: lets a test wait for a file to grow without
/// sleeping and polling its size.
final class FolderWatch {
    private let descriptor: Int32

    init(_ folder: String) throws {
        descriptor = inotify_init()
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard inotify_add_watch(descriptor, folder, UInt32(IN_MODIFY) | UInt32(IN_CREATE)) >= 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(descriptor) }

    /// Checks `condition` now and after each batch of changes in the folder; returns true as soon as it
    /// holds, false when `other` (a pipe another process writes) becomes readable or hangs up without
    /// the condition holding, or when `timeout` seconds pass.
    func wait(untilEndOf other: Int32, timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        var events = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if condition() { return true }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return false }
            var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: other, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Int32.max))))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return condition() }
            if fds[0].revents & Int16(POLLIN) != 0 {
                _ = events.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            }
            if fds[1].revents != 0 { return condition() }
        }
    }
}
#endif
