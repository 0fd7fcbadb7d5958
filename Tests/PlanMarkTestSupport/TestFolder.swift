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
public enum TestFolder {
    /// This process's folder (`planmark-tests-PID-UUID`), made on first use; 0755, so a test's PostgreSQL cluster,
    /// which runs as the user postgres, can reach the folders in it.
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("planmark-tests-\(getpid())-\(UUID().uuidString)", isDirectory: true)
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

    /// A new empty folder named `prefix-UUID` in `root`.
    public static func make(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A new path `prefix-UUID` (`.ext` with `ext`) in `root`, for a file or a folder that the caller makes.
    public static func path(_ prefix: String, extension ext: String? = nil) -> URL {
        root.appendingPathComponent("\(prefix)-\(UUID().uuidString)" + (ext.map { ".\($0)" } ?? ""))
    }
}
