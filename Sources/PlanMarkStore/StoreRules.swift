#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlanMarkFormats
import PlanMarkGeometry

/// The store's rules that know no SQL dialect, written once for every back end: what text may be stored, how a
/// marker's rooms and its state at creation are worked out, how a drawing's image file is read.
package enum StoreRules {
    /// Refuses text that cannot be stored exactly and a category over 100 characters.
    package static func checkFields(note: Update<String>, category: Update<String>, assignee: Update<String>, ref: String?) throws(StoreError) {
        if case .set(let note) = note { try TextField.check(note, field: "note") }
        if case .set(let assignee) = assignee { try TextField.check(assignee, field: "assignee") }
        try TextField.check(ref, field: "ref")
        if case .set(let category) = category {
            try TextField.check(category, field: "category")
            if category.count > Marker.maxCategoryLength {
                throw StoreError.invalidText(field: "category", problem: "is \(category.count) characters long; at most \(Marker.maxCategoryLength)")
            }
        }
    }

    /// Refuses a comment that is empty or blank, longer than `Comment.maxLength` characters, or cannot be stored exactly.
    /// - Complexity: O(length), stopping past the limit.
    package static func comment(_ text: String, author: String?) throws(StoreError) {
        try TextField.check(author, field: "author")
        guard text.contains(where: { !$0.isWhitespace }) else { throw StoreError.invalidText(field: "comment", problem: "is empty") }
        if text.utf8.count > Comment.maxLength, text.count > Comment.maxLength {
            throw StoreError.invalidText(field: "comment", problem: "is \(text.count) characters long; at most \(Comment.maxLength)")
        }
        try TextField.check(text, field: "comment")
    }

    /// Refuses region ids and names that cannot be stored exactly.
    package static func checkText(of regions: [Region]) throws(StoreError) {
        for region in regions {
            try TextField.check(region.id, field: "region id")
            try TextField.check(region.name, field: "region \(region.id): name")
        }
    }

    /// Whether `new` describes the marker whose state at creation was `state` (author and time aside).
    package static func sameContent(_ new: NewMarker, _ state: MarkerState) -> Bool {
        let note = state.note.applied(to: nil), category = state.category.applied(to: nil), assignee = state.assignee.applied(to: nil)
        let due = state.due.applied(to: nil), capturedAt = state.capturedAt.applied(to: nil), ref = state.ref.applied(to: nil)
        let status: MarkerStatus = state.status ?? .open, priority: MarkerPriority = state.priority ?? .normal
        guard state.x == new.position.x, state.y == new.position.y, status == new.status, priority == new.priority else { return false }
        return note == new.note && category == new.category && assignee == new.assignee && due == new.due
            && capturedAt == new.capturedAt && ref == new.ref
    }

    /// The validator for a drawing: its size, its regions, walls covered.
    package static func validator(for drawing: Drawing, regions: [Region]) -> MarkerValidator {
        MarkerValidator(regions: regions, size: drawing.size, boundary: .include, requireRoom: false)
    }

    /// The ids of the rooms among `hits`, in region order.
    package static func rooms(_ hits: [RegionHit], validator: MarkerValidator) -> [String] {
        hits.compactMap { hit in
            let region = validator.regions[hit.regionIndex]
            return region.kind == .room ? region.id : nil
        }
    }

    /// An import's first step, outside any transaction: the author checked, the input read into memory (a slow pipe
    /// never holds a lock).
    package static func readImportInput<Source: MarkerRowSource>(_ source: inout Source, author: String?) throws(StoreError) {
        try TextField.check(author, field: "author")
        do {
            try source.readInput()
        } catch {
            throw .input(error)
        }
    }

    /// The marker `new` becomes as number `number` of `drawing` (which must have its id), placed where `verdict`
    /// found it, at `now`: its uuid the client's or, when it gave none, the one derived from the drawing's seed.
    package static func marker(_ new: NewMarker, number: Int, of drawing: Drawing, verdict: MarkerVerdict,
                               validator: MarkerValidator, author: String?, at now: Timestamp) -> Marker {
        var marker = Marker(drawingID: drawing.id!, number: number,
                            uuid: new.uuid ?? DerivedUUID.make(seed: drawing.uuidSeed, number: number), ref: new.ref,
                            position: new.position, status: new.status, note: new.note, author: author,
                            category: new.category, priority: new.priority, assignee: new.assignee, due: new.due,
                            capturedAt: new.capturedAt, rooms: rooms(verdict.hits, validator: validator),
                            createdAt: now, updatedAt: now)
        marker.uuidIsDerived = new.uuid == nil
        return marker
    }

    /// A marker's values when it was created: its current values (or those its removal recorded) with
    /// the old values of every later change put back, newest first.
    /// - Complexity: O(e) for e later entries.
    package static func stateAtCreation(current: MarkerState?, laterEntries: [HistoryEntry]) -> MarkerState? {
        var state = current
        for entry in laterEntries.reversed() {
            if entry.action == .removed {
                state = entry.old
                continue
            }
            guard let restored = state, let old = entry.old else { continue }
            state = restored.overlaid(with: old)
        }
        return state
    }

    /// `MarkerState(x:y:rooms:needsPlacement:revision:).jsonText`, written directly: the rooms are the stored JSON
    /// array (`RoomList.jsonText`'s bytes already), so they are not parsed and written again for each of m markers.
    /// - Complexity: O(length of the text).
    package static func stateJSON(_ position: PixelPoint, rooms: String, reason: Update<String>, revision: Int) -> String {
        var out = "{\"x\":" + JSONNumber.text(position.x) + ",\"y\":" + JSONNumber.text(position.y) + ",\"rooms\":" + rooms
        switch reason {
        case .keep: break
        case .clear: out += ",\"needsPlacement\":null"
        case .set(let text): out += ",\"needsPlacement\":" + JSONString.quoted(text)
        }
        return out + ",\"revision\":" + String(revision) + "}"
    }

    /// Reads a whole image file.
    package static func readImage(path: String) throws(StoreError) -> [UInt8] {
        do {
            return try InputFile.readAll(path: path)
        } catch {
            if error.kind == .missingInput { throw .missingImage(path: path) }
            throw .io("\(path): \(error.message)")
        }
    }

    /// `path` made absolute against the current directory (lexically; the file is not resolved).
    package static func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var parts = directory.split(separator: "/").map(String.init)
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(String(part))
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// A new drawing's record and image bytes, checked (`NewDrawing.validate`, region text, the image's header) before
    /// any transaction: the image is the bytes given or the file read; its size comes from the PNG header, or for a PDF
    /// page from `new.pdf` (`imageSize`); its SHA-256 from the bytes.
    /// - Complexity: O(image bytes + region count).
    package static func drawing(_ new: NewDrawing, regions: [Region]) throws(StoreError) -> (drawing: Drawing, bytes: [UInt8]) {
        try new.validate()
        try checkText(of: regions)
        let bytes: [UInt8]
        if let given = new.imageBytes { bytes = given } else { bytes = try readImage(path: new.imagePath) }
        let size = try imageSize(of: bytes, path: new.imagePath, pdf: new.pdf)
        var drawing = Drawing(
            name: new.name, imagePath: absolutePath(new.imagePath), imageSHA256: SHA256.hexDigest(of: bytes),
            width: size.width, height: size.height, zoom: new.zoom, crs: new.crs,
            singleMarker: new.singleMarker, createdAt: .now(), uuidSeed: DerivedUUID.newSeed()
        )
        drawing.pdf = new.pdf?.source
        return (drawing, bytes)
    }

    /// A new drawing's or revision's image size: a PNG's from its header (`notPNG` without one); a PDF page's as `pdf`
    /// gives it (its values checked by `PDFPageImage.validate` before), once the bytes start with `%PDF-` (`notPDF`
    /// otherwise: the store reads no further into a PDF).
    /// - Complexity: O(1).
    package static func imageSize(of bytes: [UInt8], path: String, pdf: PDFPageImage?) throws(StoreError) -> (width: Int, height: Int) {
        if let pdf {
            try PDFPageImage.checkHeader(bytes, path: path)
            return (pdf.width, pdf.height)
        }
        let header = try PNGHeader(bytes: bytes, path: path)
        return (header.width, header.height)
    }

    /// An attachment's type (from its bytes; a `declaredType` that disagrees is refused) and SHA-256, its caption and
    /// author checked, and a photo's declared size within `PhotoSize`'s limits: everything decided before any
    /// transaction.
    /// - Complexity: O(bytes).
    package static func attachment(_ bytes: [UInt8], declaredType: AttachmentType?, caption: String?,
                                   author: String?) throws(StoreError) -> (type: AttachmentType, sha256: String) {
        try TextField.check(caption, field: "caption")
        try TextField.check(author, field: "author")
        guard let type = AttachmentType(sniffing: bytes) else {
            throw StoreError.unsupportedMediaType("the file is not a JPEG, PNG or PDF (judged by its first bytes)")
        }
        if let declaredType, declaredType != type {
            throw StoreError.unsupportedMediaType("the file is declared \(declaredType.contentType) but its bytes are \(type.contentType)")
        }
        if let size = PhotoSize(of: bytes, type: type), !size.isWithinLimits { throw StoreError.photoTooLarge(size) }
        return (type, SHA256.hexDigest(of: bytes))
    }

    /// Marker `number`'s history from its entries (its own and the import range that created it, oldest first),
    /// with the import's entry (at `rangeIndex`, the first with a `lastNumber`) made that marker's own: its values
    /// at creation worked out from `current` (its values now, nil once removed) and the entries after it.
    /// - Complexity: O(e) for e entries.
    package static func expandingImport(_ entries: [HistoryEntry], at rangeIndex: Int, number: Int,
                                        current: MarkerState?) -> [HistoryEntry] {
        var entries = entries
        var entry = entries[rangeIndex]
        entry.number = number
        entry.lastNumber = nil
        entry.new = stateAtCreation(current: current, laterEntries: Array(entries[(rangeIndex + 1)...]))
        entries[rangeIndex] = entry
        return entries
    }
}
