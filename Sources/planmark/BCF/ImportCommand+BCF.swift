import ArgumentParser
import Foundation
import PlanMarkBCF
import PlanMarkStore

#if canImport(Glibc)
import Glibc
#endif

extension ImportCommand {
    /// Whether `markers` is a BCF file: `--input-format bcf`, a `.bcf` or `.bcfzip` name, or a file that starts as a zip does.
    var isBCF: Bool {
        if inputFormat == .bcf { return true }
        if inputFormat != nil { return false }
        let lower = markers.lowercased()
        if lower.hasSuffix(".bcf") || lower.hasSuffix(".bcfzip") { return true }
        guard markers != "-", let handle = FileHandle(forReadingAtPath: markers) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)).map { Array($0) == [0x50, 0x4B, 0x03, 0x04] } ?? false
    }

    /// Imports a BCF file's topics (`BCFImport`) in one transaction, or nothing.
    func importBCF() async throws {
        let limits = BCFLimits()
        let bytes = try readBounded(limit: limits.fileBytes)
        let outcome: ItemsImport = try await storeCommand {
            let store = try await storeOptions.open()
            let drawing = try await store.drawing(named: name).drawing
            let users = try await store.users()
            let items: [ImportedItem]
            do throws(BCFError) {
                items = try BCFImport.items(of: try BCFArchive(reading: bytes, limits: limits, snapshots: false), drawing: drawing, users: users)
            } catch {
                throw CommandFailure(bcf: error, file: markers)
            }
            return try await store.importItems(into: name, items, author: try await author.resolved(in: store))
        }
        let counts = "(stored \(outcome.stored.count), already stored \(outcome.alreadyStored.count))"
        if let first = outcome.stored.first, let last = outcome.stored.last {
            let placing = outcome.stored.filter { $0.needsPlacement != nil }.count
            printError("planmark: stored markers \(first.number)...\(last.number) in \"\(name)\" \(counts), \(counted(outcome.comments, "comment"))"
                       + (placing > 0 ? "; \(placing) without a position, at the sheet's centre, need placing (no-position)" : ""))
        } else if !outcome.alreadyStored.isEmpty {
            printError("planmark: nothing new stored in \"\(name)\" \(counts)")
        }
        try await storeCommand {
            try StandardOutput.print("\(outcome.stored.count)\n")
        }
    }

    /// The file's (or stdin's) bytes, refused past `limit` before they are all read.
    func readBounded(limit: Int) throws -> [UInt8] {
        let handle: FileHandle
        if markers == "-" {
            handle = FileHandle.standardInput
        } else {
            var info = stat()
            guard stat(markers, &info) == 0 else { throw fail(CommandFailure(place: markers, message: "no such file", code: Exit.noInput)) }
            guard Int(info.st_size) <= limit else {
                throw fail(CommandFailure(bcf: .tooLarge("the file is \(info.st_size) bytes; at most \(limit) are read"), file: markers))
            }
            guard let opened = FileHandle(forReadingAtPath: markers) else {
                throw fail(CommandFailure(place: markers, message: "cannot be read", code: Exit.ioError))
            }
            handle = opened
        }
        defer { if markers != "-" { try? handle.close() } }
        var bytes: [UInt8] = []
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                bytes.append(contentsOf: chunk)
                if bytes.count > limit {
                    throw fail(CommandFailure(bcf: .tooLarge("the file is over \(limit) bytes"), file: markers))
                }
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw fail(CommandFailure(place: markers, message: "cannot be read (\(error))", code: Exit.ioError))
        }
        return bytes
    }
}
