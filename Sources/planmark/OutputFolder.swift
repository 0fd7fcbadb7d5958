import Glibc

/// An output folder (a tile pyramid, an HTML report), written as a temporary folder beside the target
/// (`.NAME.tmp-XXXXXX`) and renamed into place by `commit`; until then the target does not change, and deinit
/// removes the temporary folder. A target that exists and is not an empty folder is refused (73).
/// `writeFile` may be called from several threads (each call writes its own file).
final class OutputFolder: @unchecked Sendable {
    let path: String
    private let temporary: String
    private var committed = false

    /// Refuses a target that exists and is not an empty folder (`what` says what goes there: "tiles go", "the
    /// report goes"), then makes the temporary folder with `folders` (relative paths, parents first).
    init(path: String, what: String, folders: [String]) throws(OutputError) {
        var target = path
        while target.count > 1 && target.hasSuffix("/") { target.removeLast() }
        self.path = target
        var status = stat()
        if lstat(target, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFDIR, Self.isEmptyFolder(target) else {
                throw OutputError(
                    place: target, message: "already exists and is not an empty folder (\(what) to a new folder; remove it first)",
                    exitCode: Exit.cannotCreate)
            }
        }
        let slash = target.lastIndex(of: "/")
        let parent = slash.map { String(target[...$0]) } ?? ""
        let base = slash.map { String(target[target.index(after: $0)...]) } ?? target
        var template = Array((parent + "." + base + ".tmp-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw OutputError(place: target, message: "cannot create: \(String(cString: strerror(errno)))", exitCode: Exit.cannotCreate)
        }
        temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        chmod(temporary, 0o755 & ~Self.umaskValue)
        for folder in folders { try makeFolder(folder) }
    }

    deinit { discard() }

    /// Removes the temporary folder and everything in it (unless committed; once).
    func discard() {
        if committed { return }
        committed = true
        Self.removeTree(temporary)
    }

    private func makeFolder(_ relative: String) throws(OutputError) {
        if mkdir(temporary + "/" + relative, 0o777) != 0 {
            throw OutputError(place: path, message: "cannot create: \(String(cString: strerror(errno)))", exitCode: Exit.cannotCreate)
        }
    }

    /// Writes a file inside the folder.
    func writeFile(_ relative: String, _ bytes: [UInt8]) throws(OutputError) {
        let file = temporary + "/" + relative
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw OutputError(place: path, message: "cannot create \(relative): \(String(cString: strerror(errno)))", exitCode: Exit.cannotCreate)
        }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw OutputError(place: path, message: "cannot write \(relative): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// The path of `relative` inside the temporary folder (`""`: the folder itself), for a program that writes there.
    func path(of relative: String) -> String {
        relative.isEmpty ? temporary : temporary + "/" + relative
    }

    /// Removes a file written inside the folder (one that is not to be kept).
    func removeFile(_ relative: String) {
        unlink(temporary + "/" + relative)
    }

    /// Renames the finished folder into place (over an empty folder, if one is there).
    func commit() throws(OutputError) {
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            throw OutputError(place: path, message: "cannot create: \(reason)", exitCode: Exit.cannotCreate)
        }
        committed = true
    }

    private static var umaskValue: mode_t {
        let value = umask(0o022)
        umask(value)
        return value
    }

    private static func isEmptyFolder(_ path: String) -> Bool {
        guard let folder = opendir(path) else { return false }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { return false }
        }
        return true
    }

    /// Removes a folder and everything in it (no symbolic links are followed).
    static func removeTree(_ path: String) {
        if let folder = opendir(path) {
            var names: [String] = []
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(folder)
            for name in names {
                let child = path + "/" + name
                var status = stat()
                if lstat(child, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
                    removeTree(child)
                } else {
                    unlink(child)
                }
            }
        }
        rmdir(path)
    }
}
