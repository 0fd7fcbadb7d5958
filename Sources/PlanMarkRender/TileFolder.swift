#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import PlanMarkGeometry

/// Tile pyramids on disk, `ROOT/<image sha256>/<z>/<x>/<y>.png`: the service's tile cache, which `planmark drawing add`
/// and `drawing revise` fill ahead of the service.
///
/// - Keyed by the SHA-256 of the image bytes the store keeps (the drawing's `imageSHA256`): tiles are a pure function of
///   those bytes, so any process that has the image writes the same pyramid, and a pyramid is never served for bytes it
///   was not made from.
/// - A pyramid is written to `ROOT/.building-PID-SHA-RANDOM` and renamed to `ROOT/<sha>` when whole: a reader sees the
///   whole pyramid or none of it, and when two processes write the same one, the later rename finds the folder there
///   and throws its own copy away.
package struct TileFolder: Sendable {
    /// The folder holding the pyramids.
    package let root: String

    /// A folder of pyramids at `root` (made when the first pyramid is written).
    package init(root: String) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
    }

    /// The folder a server keeps tiles in when it is not told (`--tile-cache`): `<store file>.tiles` for an SQLite store;
    /// for any other (PostgreSQL) `$TMPDIR/planmark-tiles-UID` (else `/tmp/...`), a local folder shared by this user's
    /// servers on this machine (pyramids are keyed by their image's SHA-256, so servers of several databases can share it).
    package static func defaultRoot(storeFile: String?) -> String {
        if let storeFile { return storeFile + ".tiles" }
        var folder = "/tmp"
        if let value = getenv("TMPDIR"), value.pointee != 0 { folder = String(cString: value) }
        if folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        return "\(folder)/planmark-tiles-\(getuid())"
    }

    /// `ROOT/<sha>`.
    package func pyramid(_ sha: String) -> String { "\(root)/\(sha)" }

    /// `ROOT/<sha>/<z>/<x>/<y>.png`.
    package func path(of tile: TileCoordinate, sha: String) -> String {
        "\(root)/\(sha)/\(tile.z)/\(tile.x)/\(tile.y).png"
    }

    /// A folder to write `sha`'s pyramid in before it is renamed into place: `ROOT/.building-PID-SHA-RANDOM`.
    package func temporaryFolder(sha: String) -> String {
        "\(root)/.building-\(getpid())-\(sha)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// The size of `sha`'s pyramid when it is on disk with a whole `check` tile (a path in it); nil when it must be made
    /// (a damaged pyramid is moved aside and removed first).
    /// - Complexity: O(files of the pyramid).
    package func existing(sha: String, check: String) throws(TileFileError) -> Int? {
        let folder = pyramid(sha)
        guard TileFiles.isFolder(folder) else { return nil }
        if case .tile = TileFiles.readTile(check) { return TileFiles.usage(of: folder).bytes }
        try remove(sha: sha)
        return nil
    }

    /// Removes `sha`'s pyramid: renamed to `ROOT/.evicting-SHA-PID-RANDOM` first, so a reader finds the whole pyramid or
    /// none (and makes it again), then deleted. Nothing happens when it is not there.
    /// - Complexity: O(files of the pyramid).
    package func remove(sha: String) throws(TileFileError) {
        let aside = "\(root)/.evicting-\(sha)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard TileFiles.isFolder(pyramid(sha)) else { return }
        if try TileFiles.rename(pyramid(sha), to: aside) { TileFiles.removeTree(aside) }
    }

    /// Decodes `png` band by band and writes its whole pyramid of `scheme` (tiles encoded and written on every core) to
    /// `temporary` (default: a new `temporaryFolder`), then renames it to `ROOT/<sha>`. Returns the bytes of tiles
    /// written, or of the pyramid found in place when another process renamed its copy first (`made` false). The image is
    /// never held whole. On any error the temporary folder is removed and the error rethrown: `RenderError` (the image
    /// cannot be read), `TileFileError` (the folder cannot be written), or the emit's `CancellationError`.
    /// `progress` is told how many of the image's rows have been read, `wrote` of each tile written (from the encoders' threads).
    /// - Complexity: O(image pixels) time; memory a few bands of 256 rows per level.
    package func write(sha: String, scheme: TileScheme, png: [UInt8], encoder: PNGEncoder = PNGEncoder(), temporary: String? = nil,
                       progress: ((Int) -> Void)? = nil, wrote: (@Sendable () -> Void)? = nil) throws -> (bytes: Int, made: Bool) {
        let temporary = temporary ?? temporaryFolder(sha: sha)
        try TileFiles.makeFolders(root)
        try TileFiles.makeFolder(temporary)
        let tally = TileTally(root: temporary)
        do {
            try TilePyramid(scheme: scheme, encoder: encoder).makeTilesConcurrently(ofPNG: png, source: "drawing image \(sha)", progress: progress) { coordinate, bytes in
                let column = try tally.folder(z: coordinate.z, x: coordinate.x)
                try TileFiles.create(bytes, at: "\(column)/\(coordinate.y).png")
                tally.add(bytes.count)
                wrote?()
            }
            if try !TileFiles.rename(temporary, to: pyramid(sha)) {
                TileFiles.removeTree(temporary)
                return (TileFiles.usage(of: pyramid(sha)).bytes, false)
            }
            return (tally.total, true)
        } catch {
            TileFiles.removeTree(temporary)
            throw error
        }
    }

    /// True for 64 lowercase hexadecimal digits (the name of a pyramid's folder).
    package static func isDigest(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }

    /// True unless the process named in `.building-PID-...` is gone.
    package static func ownerAlive(_ name: String) -> Bool {
        let parts = name.split(separator: "-")
        guard parts.count >= 2, let pid = Int32(parts[1]) else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}

/// The folders made and bytes written while the encoders' threads write one pyramid.
final class TileTally: @unchecked Sendable {
    private let root: String
    private let lock = DispatchQueue(label: "planmark.render.tile-tally")
    private var folders: Set<String> = []
    private var bytes = 0

    init(root: String) { self.root = root }

    /// `ROOT/<z>/<x>`, made (with `ROOT/<z>`) by the first thread that needs it, before any file goes in.
    func folder(z: Int, x: Int) throws -> String {
        let column = "\(root)/\(z)/\(x)"
        try lock.sync { () throws -> Void in
            guard !folders.contains(column) else { return }
            try TileFiles.makeFolder("\(root)/\(z)")
            try TileFiles.makeFolder(column)
            folders.insert(column)
        }
        return column
    }

    func add(_ count: Int) { lock.sync { bytes += count } }

    var total: Int { lock.sync { bytes } }
}
