#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import PlanMarkGeometry

/// Tile pyramids on disk, `ROOT/<key>/<z>/<x>/<y>.png`: the service's tile cache, which `planmark drawing add`
/// and `drawing revise` fill ahead of the service.
///
/// - Keyed by `TileKey`: the SHA-256 of the image bytes the store keeps (the drawing's `imageSHA256`), and for a page of a
///   PDF its page and dpi (`<sha>-p<page>-<dpi>`). Tiles are a pure function of those, so any process that has the image
///   writes the same pyramid, and a pyramid is never served for bytes it was not made from.
/// - A pyramid is written to `ROOT/.building-PID-KEY-RANDOM` and renamed to `ROOT/<key>` when whole: a reader sees the
///   whole pyramid or none of it, and when two processes write the same one, the later rename finds the folder there
///   and throws its own copy away. Tiles drawn later from a PDF's vectors (the levels above the pyramid's) are added to
///   a pyramid in place, each file renamed into place whole (`addTile`).
/// - A PDF drawn by the child process `planmark-pdf` is read from a file: `ROOT/.pdf/<sha>.pdf`, written once (`storePDF`).
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

    /// `ROOT/<key>`.
    package func pyramid(_ key: TileKey) -> String { "\(root)/\(key.name)" }

    /// `ROOT/<key>/<z>/<x>/<y>.png`.
    package func path(of tile: TileCoordinate, key: TileKey) -> String {
        "\(root)/\(key.name)/\(tile.z)/\(tile.x)/\(tile.y).png"
    }

    /// A folder to write `key`'s pyramid in before it is renamed into place: `ROOT/.building-PID-KEY-RANDOM`.
    package func temporaryFolder(key: TileKey) -> String {
        "\(root)/.building-\(getpid())-\(key.name)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// The size of `key`'s pyramid when it is on disk with a whole `check` tile (a path in it); nil when it must be made
    /// (a damaged pyramid is moved aside and removed first).
    /// - Complexity: O(files of the pyramid).
    package func existing(key: TileKey, check: String) throws(TileFileError) -> Int? {
        let folder = pyramid(key)
        guard TileFiles.isFolder(folder) else { return nil }
        if case .tile = TileFiles.readTile(check) { return TileFiles.usage(of: folder).bytes }
        try remove(key: key)
        return nil
    }

    /// Removes `key`'s pyramid: renamed to `ROOT/.evicting-KEY-PID-RANDOM` first, so a reader finds the whole pyramid or
    /// none (and makes it again), then deleted. Nothing happens when it is not there.
    /// - Complexity: O(files of the pyramid).
    package func remove(key: TileKey) throws(TileFileError) {
        let aside = "\(root)/.evicting-\(key.name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard TileFiles.isFolder(pyramid(key)) else { return }
        if try TileFiles.rename(pyramid(key), to: aside) { TileFiles.removeTree(aside) }
    }

    /// Decodes `png` band by band and writes its whole pyramid of `scheme` (tiles encoded and written on every core) to
    /// `temporary` (default: a new `temporaryFolder`), then renames it to `ROOT/<key>`. Returns the bytes of tiles
    /// written, or of the pyramid found in place when another process renamed its copy first (`made` false). The image is
    /// never held whole. On any error the temporary folder is removed and the error rethrown: `RenderError` (the image
    /// cannot be read), `TileFileError` (the folder cannot be written), or the emit's `CancellationError`.
    /// `progress` is told how many of the image's rows have been read, `wrote` of each tile written (from the encoders' threads).
    /// - Complexity: O(image pixels) time; memory a few bands of 256 rows per level.
    package func write(key: TileKey, scheme: TileScheme, png: [UInt8], encoder: PNGEncoder = PNGEncoder(), temporary: String? = nil,
                       progress: ((Int) -> Void)? = nil, wrote: (@Sendable () -> Void)? = nil) throws -> (bytes: Int, made: Bool) {
        let temporary = temporary ?? temporaryFolder(key: key)
        try TileFiles.makeFolders(root)
        try TileFiles.makeFolder(temporary)
        do {
            let total = try Self.fill(temporary, wrote: wrote) { emit in
                try TilePyramid(scheme: scheme, encoder: encoder).makeTilesConcurrently(ofPNG: png, source: "drawing image \(key.sha256)",
                                                                                        progress: progress, emit: emit)
            }
            return try install(temporary, key: key, bytes: total)
        } catch {
            TileFiles.removeTree(temporary)
            throw error
        }
    }

    /// Writes the tiles `make` hands to its `emit` (from any thread) into `folder`, an existing folder, as
    /// `folder/<z>/<x>/<y>.png` (each column's folders made before its first file), and returns the bytes written;
    /// `wrote` is told of each tile. On an error what was written stays: the caller removes `folder`.
    /// - Throws: what `make` throws, `TileFileError` for a file that cannot be written.
    /// - Complexity: O(tiles) besides `make`.
    package static func fill(_ folder: String, wrote: (@Sendable () -> Void)? = nil,
                             make: (_ emit: @escaping @Sendable (TileCoordinate, [UInt8]) throws -> Void) throws -> Void) throws -> Int {
        let tally = TileTally(root: folder)
        try make { coordinate, bytes in
            let column = try tally.folder(z: coordinate.z, x: coordinate.x)
            try TileFiles.create(bytes, at: "\(column)/\(coordinate.y).png")
            tally.add(bytes.count)
            wrote?()
        }
        return tally.total
    }

    /// Renames a whole pyramid, written in `temporary` (`bytes` of tiles), to `ROOT/<key>`; when another process renamed
    /// its copy first, removes `temporary` and returns the size of the one in place (`made` false).
    /// - Throws: `TileFileError` when the rename fails otherwise (`temporary` is left for the caller to remove).
    /// - Complexity: O(1), or O(files of the pyramid) when another's is kept.
    package func install(_ temporary: String, key: TileKey, bytes: Int) throws(TileFileError) -> (bytes: Int, made: Bool) {
        if try !TileFiles.rename(temporary, to: pyramid(key)) {
            TileFiles.removeTree(temporary)
            return (TileFiles.usage(of: pyramid(key)).bytes, false)
        }
        return (bytes, true)
    }

    /// Adds one tile to `key`'s pyramid when the pyramid is on disk (a tile drawn from a PDF's vectors, above the
    /// pyramid's levels): written beside its place and renamed there, so a reader finds the whole file or none. Returns
    /// false, writing nothing, when the pyramid is not there (not made yet, or evicted).
    /// - Throws: `TileFileError` when the file cannot be written (nothing is left of it).
    /// - Complexity: O(bytes).
    package func addTile(_ bytes: [UInt8], at tile: TileCoordinate, key: TileKey) throws(TileFileError) -> Bool {
        let folder = pyramid(key)
        guard TileFiles.isFolder(folder) else { return false }
        try TileFiles.makeFolder("\(folder)/\(tile.z)")
        try TileFiles.makeFolder("\(folder)/\(tile.z)/\(tile.x)")
        let target = path(of: tile, key: key)
        try TileFiles.createWhole(bytes, at: target, via: "\(folder)/\(tile.z)/\(tile.x)/.\(tile.y).png-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        return true
    }

    /// `ROOT/.pdf/<sha256>.pdf`: the PDF `planmark-pdf` reads a PDF drawing from (`storePDF`).
    package func pdfFile(sha256: String) -> String { "\(root)/.pdf/\(sha256).pdf" }

    /// Writes `bytes` (a PDF whose SHA-256 is `sha256`) to `pdfFile(sha256:)` unless it is there: written beside it and
    /// renamed, so a file there is whole. Returns its path.
    /// - Throws: `TileFileError` when it cannot be written (nothing is left of it).
    /// - Complexity: O(bytes) the first time, O(1) after.
    package func storePDF(sha256: String, bytes: [UInt8]) throws(TileFileError) -> String {
        let path = pdfFile(sha256: sha256)
        var info = stat()
        if stat(path, &info) == 0 && Int(info.st_size) == bytes.count { return path }
        try TileFiles.makeFolders("\(root)/.pdf")
        try TileFiles.createWhole(bytes, at: path, via: "\(root)/.pdf/.\(sha256)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        return path
    }

    /// Removes `pdfFile(sha256:)` (when no pyramid of that PDF is kept any more).
    package func removePDF(sha256: String) {
        unlink(pdfFile(sha256: sha256))
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
