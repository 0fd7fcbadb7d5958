import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore
import PostgresNIO

extension PostgresStore {
    /// The columns of `revision`, in the order `decodeRevision` reads them.
    static let revisionColumns = "number, imagePath, imageSHA256, width, height, createdAt, author, a, b, c, d, e, f, maxResidual, pdfPage, pdfDPI"

    /// A revision from a row of `revisionColumns`.
    static func decodeRevision(_ row: PostgresRow) throws -> Revision {
        let cells = row.makeRandomAccess()
        var transform: AffineMap?
        if let a = try cells[7].decode(Double?.self), let b = try cells[8].decode(Double?.self), let c = try cells[9].decode(Double?.self),
           let d = try cells[10].decode(Double?.self), let e = try cells[11].decode(Double?.self), let f = try cells[12].decode(Double?.self) {
            transform = AffineMap(a: a, b: b, c: c, d: d, e: e, f: f)
        }
        var pdf: PDFSource?
        if let page = try cells[14].decode(Int?.self), let dpi = try cells[15].decode(Int?.self) { pdf = PDFSource(page: page, dpi: dpi) }
        return Revision(number: try cells[0].decode(Int.self), imagePath: try cells[1].decode(String.self),
                        imageSHA256: try cells[2].decode(String.self), width: try cells[3].decode(Int.self),
                        height: try cells[4].decode(Int.self), createdAt: Timestamp(milliseconds: try cells[5].decode(Int64.self)),
                        author: try cells[6].decode(String?.self), transform: transform, maxResidual: try cells[13].decode(Double?.self),
                        pdf: pdf)
    }

    /// The drawing's revisions, oldest first.
    /// - Complexity: O(r) for its r revisions.
    public func revisions(of name: String) async throws(StoreError) -> [Revision] {
        try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger) else { throw StoreError.unknownDrawing(name) }
            var result: [Revision] = []
            let sql = "SELECT \(Self.revisionColumns) FROM revision WHERE drawingId = $1 ORDER BY number"
            var bindings = PostgresBindings()
            bindings.append(drawing.id!)
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
                result.append(try Self.decodeRevision(row))
            }
            return result
        }
    }

    /// The image of revision `number` of the drawing, byte for byte (`unknownRevision` when it has no such revision).
    /// Read from the `image` table; a revision whose bytes are not there (a store copied from an SQLite store that
    /// predates stored images) is read from its file, and refused when the file's bytes differ.
    /// - Complexity: O(image bytes).
    public func revisionImage(of name: String, revision number: Int) async throws(StoreError) -> (Revision, DrawingImage) {
        let (revision, stored): (Revision, [UInt8]?) = try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger) else { throw StoreError.unknownDrawing(name) }
            let sql = "SELECT \(Self.revisionColumns) FROM revision WHERE drawingId = $1 AND number = $2"
            var bindings = PostgresBindings()
            bindings.append(drawing.id!)
            bindings.append(number)
            var found: Revision? = nil
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
                found = try Self.decodeRevision(row)
            }
            guard let revision = found else { throw StoreError.unknownRevision(drawing: name, number: number) }
            for try await (bytes) in try await connection.query(
                "SELECT bytes FROM image WHERE sha256 = \(revision.imageSHA256)", logger: logger
            ).decode(ByteBuffer.self) {
                return (revision, Array(bytes.readableBytesView))
            }
            return (revision, nil)
        }
        if let stored { return (revision, DrawingImage(sha256: revision.imageSHA256, bytes: stored, pdf: revision.pdf)) }
        let bytes = try StoreRules.readImage(path: revision.imagePath)
        guard SHA256.hexDigest(of: bytes) == revision.imageSHA256 else {
            throw .imageChanged(drawing: name, path: revision.imagePath)
        }
        return (revision, DrawingImage(sha256: revision.imageSHA256, bytes: bytes, pdf: revision.pdf))
    }

    /// Where the drawing's markers were on revision `number`: for the current revision, where they are; for an
    /// older one, the position each had when the next revision carried it on (the `old` side of its `revised`
    /// entry from `number`). Markers created after that revision (and removed ones) are not in the result.
    /// - Complexity: O(h) for the drawing's h `revised` history entries (older revisions), O(m) for the current one.
    public func markerPositions(of name: String, onRevision number: Int) async throws(StoreError) -> [Int: PixelPoint] {
        try await readSnapshot { connection, logger in
            guard let drawing = try await Self.fetchDrawing(connection, named: name, logger: logger) else { throw StoreError.unknownDrawing(name) }
            let drawingID = drawing.id!
            var positions: [Int: PixelPoint] = [:]
            if number == drawing.revision {
                for try await (marker, x, y) in try await connection.query(
                    "SELECT number, x, y FROM marker WHERE drawingId = \(drawingID)", logger: logger
                ).decode((Int, Double, Double).self) {
                    positions[marker] = PixelPoint(x: x, y: y)
                }
                return positions
            }
            // Later entries win, as SQLite's loop over the entries in id order.
            for try await (marker, text) in try await connection.query("""
                SELECT h.number, h.oldValue FROM history h
                WHERE h.drawingId = \(drawingID) AND h.action = 'revised'
                    AND EXISTS (SELECT 1 FROM marker m WHERE m.drawingId = h.drawingId AND m.number = h.number)
                ORDER BY h.id
                """, logger: logger
            ).decode((Int, String?).self) {
                guard let text, let old = MarkerState(jsonText: text), old.revision == number, let x = old.x, let y = old.y else { continue }
                positions[marker] = PixelPoint(x: x, y: y)
            }
            return positions
        }
    }
}
