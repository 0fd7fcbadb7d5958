import Foundation

/// SHA-256 of `bytes`, hexadecimal, by the system's `sha256sum`: an implementation independent of the
/// store's own, for expected values in tests.
public func sha256sum(_ bytes: some Sequence<UInt8>) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    let input = ChildProcess.pipe(), output = ChildProcess.pipe()
    process.standardInput = input
    process.standardOutput = output
    guard (try? ChildProcess.run(process)) != nil else { return "sha256sum did not run" }
    // Write on another thread so a large input cannot block against the child's output.
    let data = Data(bytes)
    let writer = Thread {
        try? input.fileHandleForWriting.write(contentsOf: data)
        try? input.fileHandleForWriting.close()
    }
    writer.start()
    let result = output.fileHandleForReading.readBytesToEnd()
    process.waitUntilExit()
    return String(decoding: result.prefix(64), as: UTF8.self)
}
