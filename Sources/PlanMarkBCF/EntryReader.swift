import Foundation
import ZIPFoundation

/// Reads a zip's entries by path, under the limits.
struct EntryReader {
    let archive: Archive
    let limits: BCFLimits
    var entries: [String: Entry] = [:]
    /// Folders (one level deep) holding a `markup.bcf`, in the zip's order.
    var topicFolders: [String] = []
    var inflated = 0

    init(archive: Archive, limits: BCFLimits) {
        self.archive = archive
        self.limits = limits
    }

    /// Lists the entries: every path checked, every declared size and ratio checked, in one pass over the central
    /// directory.
    /// - Complexity: O(entries).
    mutating func index() throws(BCFError) {
        var count = 0
        var declared = 0
        for entry in archive {
            count += 1
            guard count <= limits.entries else { throw .tooLarge("more than \(limits.entries) entries in the zip") }
            let path = entry.path
            try Self.checkPath(path)
            guard entry.type != .symlink else { throw .unsafePath(path) }
            guard entry.type == .file else { continue }
            let size = entry.uncompressedSize, packed = max(1, entry.compressedSize)
            guard size <= UInt64(limits.entryBytes) else {
                throw .tooLarge("\(path) inflates to \(size) bytes; at most \(limits.entryBytes) an entry")
            }
            declared += Int(size)
            if size > 1 << 20 && size / packed > UInt64(limits.ratio) {
                throw .tooLarge("\(path) inflates \(size / packed) times its size; at most \(limits.ratio)")
            }
            entries[path] = entry
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 2 && parts[1] == Substring(BCFFiles.markup) { topicFolders.append(String(parts[0])) }
        }
        guard declared <= limits.totalBytes else { throw .tooLarge("the entries inflate to \(declared) bytes; at most \(limits.totalBytes)") }
    }

    /// Refuses a path that leaves the zip's folder: absolute, with a `..` part, a backslash, a drive or a NUL.
    static func checkPath(_ path: String) throws(BCFError) {
        if path.isEmpty || path.hasPrefix("/") || path.contains("\\") || path.contains("\0") || path.contains(":") {
            throw .unsafePath(path)
        }
        for part in path.split(separator: "/", omittingEmptySubsequences: false) where part == ".." {
            throw .unsafePath(path)
        }
    }

    /// The entry's bytes, inflated; nil when there is no such entry. What it inflates to is counted while inflating and
    /// refused past its declared size or the limits.
    mutating func read(_ path: String) throws(BCFError) -> [UInt8]? {
        guard let entry = entries[path] else { return nil }
        let declared = Int(entry.uncompressedSize)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(declared)
        let ceiling = min(declared, limits.entryBytes)
        do {
            let checksum = try archive.extract(entry) { chunk in
                guard bytes.count + chunk.count <= ceiling else {
                    throw BCFError.tooLarge("\(path) inflates to more than the \(declared) bytes it declares")
                }
                bytes.append(contentsOf: chunk)
            }
            guard checksum == entry.checksum else { throw BCFError.notBCF("\(path) is damaged (its CRC-32 does not match)") }
        } catch let error as BCFError {
            throw error
        } catch {
            throw .notBCF("\(path) cannot be read (\(error))")
        }
        guard bytes.count == declared else { throw .notBCF("\(path) is \(bytes.count) bytes, not the \(declared) it declares") }
        inflated += bytes.count
        guard inflated <= limits.totalBytes else { throw .tooLarge("the entries read inflate to more than \(limits.totalBytes) bytes") }
        return bytes
    }
}
