#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file operations of the tile folder, on POSIX calls (the service does not link Foundation).
package enum TileFiles {
    /// What reading a cached tile found.
    package enum TileRead {
        /// A whole PNG (signature first, `IEND` chunk last).
        case tile([UInt8])
        /// No such file.
        case missing
        /// A file that is not a whole PNG (cut short by a crash or a full disk, or changed by hand).
        case damaged
    }

    /// The 8 bytes every PNG starts with.
    package static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    /// The 12 bytes every PNG ends with: the empty `IEND` chunk and its CRC.
    package static let end: [UInt8] = [0, 0, 0, 0, 73, 69, 78, 68, 0xAE, 0x42, 0x60, 0x82]

    /// Reads a tile and checks that it is a whole PNG: its first and last bytes (a cheap check that
    /// catches a file cut short; the bytes between are trusted, the cache being written only by renames).
    /// - Complexity: O(file size).
    package static func readTile(_ path: String) -> TileRead {
        guard let bytes = readAll(path) else { return errno == ENOENT || errno == ENOTDIR ? .missing : .damaged }
        guard bytes.count >= signature.count + end.count, bytes.prefix(8).elementsEqual(signature), bytes.suffix(12).elementsEqual(end) else {
            return .damaged
        }
        return .tile(bytes)
    }

    /// The whole file, or nil (with `errno` set) when it cannot be opened or read.
    /// - Complexity: O(file size).
    package static func readAll(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, size - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { errno = EIO; return nil }
            done += count
        }
        return bytes
    }

    /// Writes `bytes` to a new file `path` (which must not exist).
    package static func create(_ bytes: [UInt8], at path: String) throws(TileFileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .failed("create", path, errno) }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .failed("write", path, errno) }
            done += count
        }
    }

    /// Creates folder `path` (its parent must exist); an existing folder is fine.
    package static func makeFolder(_ path: String) throws(TileFileError) {
        if mkdir(path, 0o755) != 0 && errno != EEXIST { throw .failed("create folder", path, errno) }
    }

    /// Creates folder `path` and any missing parents.
    package static func makeFolders(_ path: String) throws(TileFileError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            try makeFolder(prefix)
        }
    }

    /// True when `path` is a folder.
    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Writes `bytes` to `temporary` and renames it to `target`, so that a file at `target` is always whole (another
    /// process writing the same file at once leaves one whole copy); nothing is left of `temporary` on failure.
    /// - Complexity: O(bytes).
    package static func createWhole(_ bytes: [UInt8], at target: String, via temporary: String) throws(TileFileError) {
        do throws(TileFileError) {
            try create(bytes, at: temporary)
            _ = try rename(temporary, to: target)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Renames `from` to `to`; false when `to` is a folder that is not empty (another process got there first).
    package static func rename(_ from: String, to: String) throws(TileFileError) -> Bool {
        #if canImport(Glibc)
        let result = Glibc.rename(from, to)
        #else
        let result = Darwin.rename(from, to)
        #endif
        if result == 0 { return true }
        if errno == ENOTEMPTY || errno == EEXIST { return false }
        throw .failed("rename", from, errno)
    }

    /// The names in folder `path` (without `.` and `..`); empty when it cannot be read.
    package static func names(in path: String) -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The total size of the files under `path` and the folder's modification time (seconds).
    /// - Complexity: O(files under `path`).
    package static func usage(of path: String) -> (bytes: Int, modified: Int) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return (0, 0) }
        #if canImport(Glibc)
        let modified = Int(info.st_mtim.tv_sec)
        #else
        let modified = Int(info.st_mtimespec.tv_sec)
        #endif
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return (Int(info.st_size), modified) }
        var total = 0
        for name in names(in: path) { total += usage(of: path + "/" + name).bytes }
        return (total, modified)
    }

    /// Removes `path` and everything under it (symbolic links are removed, not followed).
    /// - Complexity: O(files under `path`).
    package static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            for name in names(in: path) { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}

/// A file operation of the tile folder that failed: what, on which path, and `errno`'s message.
package struct TileFileError: Error, CustomStringConvertible {
    package let description: String

    package static func failed(_ what: String, _ path: String, _ code: Int32) -> TileFileError {
        TileFileError(description: "\(path): cannot \(what): \(String(cString: strerror(code)))")
    }
}
