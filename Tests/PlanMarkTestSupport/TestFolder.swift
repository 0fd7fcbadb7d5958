import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tests' temporary folders: each test process makes one folder in the temporary directory, puts every folder a
/// test asks for in it, and removes it when the process exits. (Before, every suite run left about 1,000 folders of
/// stores, tiles and logs behind.) A process that crashes leaves its folder, named for its pid, for a look.
///
/// Names are short (a number, not a UUID, below a folder only this process uses): a test's PostgreSQL cluster puts its
/// Unix socket in its folder, and a socket's path must fit in 107 bytes.
public enum TestFolder {
    /// This process's folder (`planmark-tests-PID-XXXXXXXX`, 8 random hex digits), made on first use; 0755, so a
    /// test's PostgreSQL cluster, which runs as the user postgres, can reach the folders in it.
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("planmark-tests-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        } catch {
            fatalError("cannot make the tests' temporary folder \(url.path): \(error)")
        }
        rootPath.withLock { $0 = url.path }
        atexit {
            if let path = TestFolder.rootPath.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
        }
        return url
    }()

    /// `root`'s path for the exit handler, which cannot capture it.
    private static let rootPath = Mutex<String?>(nil)
    /// The last number given to a name in `root`.
    private static let counter = Atomic<Int>(0)

    /// `prefix-N`, N new in this process.
    private static func name(_ prefix: String) -> String {
        "\(prefix)-\(counter.add(1, ordering: .relaxed).newValue)"
    }

    /// A new empty folder named `prefix-N` in `root`.
    public static func make(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent(name(prefix), isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A new path `prefix-N` (`.ext` with `ext`) in `root`, for a file or a folder that the caller makes.
    public static func path(_ prefix: String, extension ext: String? = nil) -> URL {
        root.appendingPathComponent(name(prefix) + (ext.map { ".\($0)" } ?? ""))
    }
}
