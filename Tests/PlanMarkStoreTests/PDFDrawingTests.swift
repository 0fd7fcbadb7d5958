import Foundation
import PlanMarkGeometry
import PlanMarkPostgres
import PlanMarkStoreTestSupport
import PlanMarkTestSupport
import Testing
@testable import PlanMarkStore
@testable import PlanMarkSQLite

/// Drawings whose image is a page of a PDF (`PDFSource`, `PDFPageImage`), on every back end: stored and read back,
/// listed, revised to and from PNG sheets, refused, stored once per SHA-256, copied by `store migrate`, and a store from
/// before the columns upgraded. The store reads no PDF: the pixel sizes below are worked out by hand from the page's
/// points (`ceil(points * dpi / 72)`), as the CLI will measure them.
@Suite struct PDFDrawingTests {
    /// A one-page PDF written by hand: an A4 page, 595 x 842 pt (pdfinfo: "Page size: 595 x 842 pts (A4)", no errors).
    static let portrait = Array("""
        %PDF-1.4
        1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
        2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
        3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj
        xref
        0 4
        0000000000 65535 f \n\
        0000000009 00000 n \n\
        0000000058 00000 n \n\
        0000000115 00000 n \n\
        trailer << /Size 4 /Root 1 0 R >>
        startxref
        186
        %%EOF

        """.utf8)

    /// The same page turned landscape, 842 x 595 pt (the MediaBox's text has the same length: the offsets hold).
    static let landscape = Array(String(decoding: portrait, as: UTF8.self).replacingOccurrences(of: "[0 0 595 842]", with: "[0 0 842 595]").utf8)

    /// Writes `bytes` to `name` in `folder`; its path.
    static func file(_ bytes: [UInt8], in folder: URL, name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Drawing "A" (400 x 300 PNG, `StoreFixtures.regions`) with markers 1 at (50, 50), 2 at (300, 100), 3 at (380, 280).
    static func storeWithMarkers(_ kind: StoreKind) async throws -> (any AnnotationStore, URL) {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        for (x, y) in [(50.0, 50.0), (300, 100), (380, 280)] {
            _ = try await store.addMarker(to: "A", at: PixelPoint(x: x, y: y), note: nil, author: nil)
        }
        return (store, folder)
    }

    static func positions(_ store: any AnnotationStore, _ name: String) async throws -> [PixelPoint] {
        var positions: [PixelPoint] = []
        try await store.forEachMarker(in: name, status: nil) { positions.append($0.position); return true }
        return positions
    }

    /// Page 2 of a PDF at 300 dpi: the drawing, its summary, the list, its image and its revision 1 all say so, in this
    /// store and in the same store opened again; a PNG drawing beside it has no PDF page.
    @Test(arguments: StoreFixtures.kinds) func aPDFPageIsStoredAndReadBack(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        let path = try Self.file(Self.portrait, in: folder, name: "plan.pdf")
        // A4 at 300 dpi: 595 * 300 / 72 = 2479.17 -> 2480, 842 * 300 / 72 = 3508.33 -> 3509.
        let added = try await store.addDrawing(NewDrawing(name: "P", imagePath: path, pdf: PDFPageImage(page: 2, dpi: 300, width: 2480, height: 3509)),
                                               regions: [])
        let source = PDFSource(page: 2, dpi: 300)
        // The literal is the file pdfinfo checked (329 bytes).
        #expect(Self.portrait.count == 329 && Self.landscape.count == 329)
        #expect(added.pdf == source && added.width == 2480 && added.height == 3509 && added.imagePath == path)
        #expect(added.imageSHA256 == sha256sum(Self.portrait))
        for reader in [store, try await StoreFixtures.reopen(store)] {
            let drawing = try await reader.drawingRecord(named: "P")
            #expect(drawing.pdf == source && drawing.width == 2480 && drawing.height == 3509 && drawing.revision == 1)
            #expect(try await reader.drawing(named: "P").drawing == drawing)
            let listed = try await reader.drawings().map { ($0.drawing.name, $0.drawing.pdf) }
            #expect(listed.map(\.0) == ["A", "P"] && listed.map(\.1) == [nil, source])
            let image = try await reader.image(of: "P")
            #expect(image == DrawingImage(sha256: sha256sum(Self.portrait), bytes: Self.portrait, pdf: source))
            #expect(try await reader.image(of: "A").pdf == nil)
            let revisions = try await reader.revisions(of: "P")
            #expect(revisions.count == 1 && revisions[0].pdf == source && revisions[0].width == 2480 && revisions[0].height == 3509)
            let (revision, revisionImage) = try await reader.revisionImage(of: "P", revision: 1)
            #expect(revision == revisions[0] && revisionImage == image)
        }
        // The bytes given by the caller (as the CLI gives them) are stored the same way.
        let given = try await store.addDrawing(NewDrawing(name: "Q", imagePath: "elsewhere.pdf", imageBytes: Self.landscape,
                                                          pdf: PDFPageImage(page: 1, dpi: 72, width: 842, height: 595)), regions: [])
        #expect(given.pdf == PDFSource(page: 1, dpi: 72) && given.width == 842 && given.height == 595)
        #expect(try await store.image(of: "Q") == DrawingImage(sha256: sha256sum(Self.landscape), bytes: Self.landscape, pdf: PDFSource(page: 1, dpi: 72)))
        // The columns as stored: NULL for the PNG drawing.
        #expect(try await StoreFixtures.texts(store, "SELECT name || ' ' || coalesce(CAST(pdfPage AS text), '-') || ' ' || coalesce(CAST(pdfDPI AS text), '-') FROM drawing ORDER BY name")
                == ["A - -", "P 2 300", "Q 1 72"])
    }

    /// PNG -> PDF (identity), PDF -> PDF at twice the resolution (markers doubled), PDF -> PNG (identity): each revision
    /// keeps its own source and size, the drawing's follow the current one, and every image is served with its source.
    @Test(arguments: StoreFixtures.kinds) func revisingBetweenPNGAndPDF(kind: StoreKind) async throws {
        let (store, folder) = try await Self.storeWithMarkers(kind)
        let png = try await store.image(of: "A")
        // Revision 2: the sheet issued as a PDF, page 1 at 72 dpi: 842 x 595 px; the markers stay where they were.
        let landscape = try Self.file(Self.landscape, in: folder, name: "rev2.pdf")
        let toPDF = try await store.reviseDrawing("A", NewRevision(imagePath: landscape, pdf: PDFPageImage(page: 1, dpi: 72, width: 842, height: 595)),
                                                  dryRun: false, author: "ana")
        #expect(toPDF.revision.number == 2 && toPDF.revision.pdf == PDFSource(page: 1, dpi: 72) && toPDF.unplaced.isEmpty && toPDF.carried == 3)
        var drawing = try await store.drawingRecord(named: "A")
        #expect(drawing.pdf == PDFSource(page: 1, dpi: 72) && drawing.width == 842 && drawing.height == 595 && drawing.imagePath == landscape)
        #expect(try await Self.positions(store, "A") == [PixelPoint(x: 50, y: 50), PixelPoint(x: 300, y: 100), PixelPoint(x: 380, y: 280)])
        #expect(try await store.image(of: "A") == DrawingImage(sha256: sha256sum(Self.landscape), bytes: Self.landscape, pdf: PDFSource(page: 1, dpi: 72)))
        // Revision 1 is still the PNG it was.
        #expect(try await store.revisionImage(of: "A", revision: 1).1 == png)

        // Revision 3: another PDF, page 3 at 144 dpi (842 * 2 = 1684, 595 * 2 = 1190), aligned at twice the scale. The
        // new size is the one given: marker 3 lands at (760, 560), inside 1684 x 1190, and nothing is flagged.
        let other = try Self.file(Self.portrait, in: folder, name: "rev3.pdf")
        let alignment = try RevisionTests.alignment([(0, 0, 0, 0), (100, 0, 200, 0)])
        let pdfToPDF = try await store.reviseDrawing("A", NewRevision(imagePath: other, alignment: alignment,
                                                                      pdf: PDFPageImage(page: 3, dpi: 144, width: 1684, height: 1190)),
                                                     dryRun: false, author: nil)
        #expect(pdfToPDF.revision.pdf == PDFSource(page: 3, dpi: 144) && pdfToPDF.unplaced.isEmpty)
        #expect(try await Self.positions(store, "A") == [PixelPoint(x: 100, y: 100), PixelPoint(x: 600, y: 200), PixelPoint(x: 760, y: 560)])
        drawing = try await store.drawingRecord(named: "A")
        #expect(drawing.pdf == PDFSource(page: 3, dpi: 144) && drawing.width == 1684 && drawing.height == 1190)

        // Revision 4: back to a PNG of the same size; the drawing is a PNG drawing again.
        let back = try StoreFixtures.png(in: folder, name: "rev4.png", width: 1684, height: 1190)
        let toPNG = try await store.reviseDrawing("A", NewRevision(imagePath: back), dryRun: false, author: nil)
        #expect(toPNG.revision.pdf == nil && toPNG.unplaced.isEmpty)
        drawing = try await store.drawingRecord(named: "A")
        #expect(drawing.pdf == nil && drawing.width == 1684 && drawing.height == 1190 && drawing.revision == 4)
        #expect(try await store.image(of: "A").pdf == nil)
        #expect(try await store.image(of: "A").bytes == StoreFixtures.pngHeader(width: 1684, height: 1190))

        let revisions = try await StoreFixtures.reopen(store).revisions(of: "A")
        #expect(revisions.map(\.pdf) == [nil, PDFSource(page: 1, dpi: 72), PDFSource(page: 3, dpi: 144), nil])
        #expect(revisions.map(\.width) == [400, 842, 1684, 1684] && revisions.map(\.height) == [300, 595, 1190, 1190])
        for (number, bytes, source) in [(2, Self.landscape, PDFSource(page: 1, dpi: 72)), (3, Self.portrait, PDFSource(page: 3, dpi: 144))] {
            let (revision, image) = try await store.revisionImage(of: "A", revision: number)
            #expect(revision.pdf == source && image == DrawingImage(sha256: sha256sum(bytes), bytes: bytes, pdf: source))
        }
    }

    /// A dry run onto a small PDF page validates against the size given: page 1 at 18 dpi is 149 x 211 px (595 * 18 / 72
    /// = 148.75, 842 * 18 / 72 = 210.5), so markers 2 (300, 100) and 3 (380, 280) fall off it and marker 1 does not.
    @Test(arguments: StoreFixtures.kinds) func aPDFRevisionIsValidatedAgainstTheSizeGiven(kind: StoreKind) async throws {
        let (store, folder) = try await Self.storeWithMarkers(kind)
        let path = try Self.file(Self.portrait, in: folder, name: "small.pdf")
        let before = try await RevisionTests.contents(store)
        let outcome = try await store.reviseDrawing("A", NewRevision(imagePath: path, pdf: PDFPageImage(page: 1, dpi: 18, width: 149, height: 211)),
                                                    dryRun: true, author: nil)
        #expect(outcome.dryRun && outcome.revision.width == 149 && outcome.revision.height == 211)
        #expect(outcome.unplaced.map(\.number) == [2, 3] && outcome.unplaced.allSatisfy { $0.reason == "outside-drawing" })
        #expect(try await RevisionTests.contents(store) == before)
    }

    /// Bytes that are not a PDF, a page 0, a resolution outside 18...2400 and a size outside 1...2^31-1 are refused, with
    /// nothing stored, for a new drawing and for a revision; the limits themselves are accepted.
    @Test(arguments: StoreFixtures.kinds) func refusals(kind: StoreKind) async throws {
        let (store, folder) = try await Self.storeWithMarkers(kind)
        let pdf = try Self.file(Self.portrait, in: folder, name: "plan.pdf")
        let png = try StoreFixtures.png(in: folder, name: "plan2.png")
        let empty = try Self.file([], in: folder, name: "empty.pdf")
        let page = { (page: Int, dpi: Int, width: Int, height: Int) in PDFPageImage(page: page, dpi: dpi, width: width, height: height) }
        let refused: [(String, PDFPageImage, StoreError)] = [
            (png, page(1, 300, 2480, 3509), .notPDF(path: png, detail: "the file does not start with %PDF-")),
            (empty, page(1, 300, 2480, 3509), .notPDF(path: empty, detail: "the file is empty")),
            (pdf, page(0, 300, 2480, 3509), .invalidArgument("page: 0 is not a page number (pages are counted from 1)")),
            (pdf, page(-1, 300, 2480, 3509), .invalidArgument("page: -1 is not a page number (pages are counted from 1)")),
            (pdf, page(1, 17, 141, 199), .invalidArgument("dpi: 17 is outside the supported range 18...2400")),
            (pdf, page(1, 2401, 19842, 28079), .invalidArgument("dpi: 2401 is outside the supported range 18...2400")),
            (pdf, page(1, 300, 0, 3509), .invalidArgument("pdf page 1 at 300 dpi: a size of 0x3509 pixels is outside 1...2147483647 a side")),
            (pdf, page(1, 300, 2480, 2_147_483_648),
             .invalidArgument("pdf page 1 at 300 dpi: a size of 2480x2147483648 pixels is outside 1...2147483647 a side")),
        ]
        let before = try await RevisionTests.contents(store)
        for (path, image, error) in refused {
            await #expect(throws: error) { try await store.addDrawing(NewDrawing(name: "P", imagePath: path, pdf: image), regions: []) }
            await #expect(throws: error) { try await store.reviseDrawing("A", NewRevision(imagePath: path, pdf: image), dryRun: false, author: nil) }
        }
        // A PDF given as a PNG is refused as before.
        await #expect(throws: StoreError.notPNG(path: pdf, detail: "the file does not start with the PNG signature")) {
            try await store.addDrawing(NewDrawing(name: "P", imagePath: pdf), regions: [])
        }
        #expect(try await RevisionTests.contents(store) == before)
        #expect(StoreError.notPDF(path: "x.png", detail: "the file does not start with %PDF-").description == "x.png: not a PDF: the file does not start with %PDF-")
        #expect(StoreError.notPDF(path: "x", detail: "").code == "not-pdf")
        // The limits themselves are taken.
        for (index, image) in [page(1, 18, 149, 211), page(2000, 2400, 2_147_483_647, 1)].enumerated() {
            let drawing = try await store.addDrawing(NewDrawing(name: "L\(index)", imagePath: pdf, pdf: image), regions: [])
            #expect(drawing.pdf == image.source && drawing.width == image.width && drawing.height == image.height)
        }
    }

    /// Two drawings on pages of one PDF keep its bytes once; they go when the last drawing that has them is removed.
    @Test(arguments: StoreFixtures.kinds) func onePDFIsStoredOnce(kind: StoreKind) async throws {
        let (store, folder) = try await StoreFixtures.storeWithDrawing(kind)
        let path = try Self.file(Self.portrait, in: folder, name: "set.pdf")
        for (name, number) in [("P1", 1), ("P2", 2)] {
            _ = try await store.addDrawing(NewDrawing(name: name, imagePath: path, pdf: PDFPageImage(page: number, dpi: 150, width: 1240, height: 1755)),
                                           regions: [])
        }
        let digest = sha256sum(Self.portrait)
        #expect(try await StoreFixtures.int(store, "SELECT count(*) FROM image WHERE sha256 = '\(digest)'") == 1)
        // A's PNG and the PDF.
        #expect(try await StoreFixtures.int(store, "SELECT count(*) FROM image") == 2)
        #expect(try await store.drawings().map(\.drawing.pdf) == [nil, PDFSource(page: 1, dpi: 150), PDFSource(page: 2, dpi: 150)])
        _ = try await store.removeDrawing("P1", force: false)
        #expect(try await StoreFixtures.int(store, "SELECT count(*) FROM image WHERE sha256 = '\(digest)'") == 1)
        _ = try await store.removeDrawing("P2", force: false)
        #expect(try await StoreFixtures.int(store, "SELECT count(*) FROM image WHERE sha256 = '\(digest)'") == 0)
    }

    /// A store of the schema before (SQLite `v15-idempotency-key-age`, PostgreSQL `pg12-idempotency-key-age`), its drawing
    /// and revision written by hand in that schema's columns, is upgraded when opened: the drawing is a PNG drawing, and it
    /// takes a PDF revision.
    @Test(arguments: StoreFixtures.kinds) func aStoreFromBeforeIsUpgraded(kind: StoreKind) async throws {
        let folder = try StoreFixtures.folder()
        let pngBytes = StoreFixtures.pngHeader(width: 400, height: 300)
        let digest = sha256sum(pngBytes)
        let hex = pngBytes.map { String(format: "%02x", $0) }.joined()
        let old: any AnnotationStore
        let reopen: () async throws -> any AnnotationStore
        switch kind {
        case .sqlite:
            let path = folder.appendingPathComponent("old.sqlite").path
            old = try SQLiteStore(path: path, create: true, migrateUpTo: StoreSchema.v15)
            reopen = { try SQLiteStore(path: path, create: false) }
        case .postgres:
            let url = try TestDatabases.fresh()
            old = try await PostgresStore(url: url, create: true, migrateUpTo: "pg12-idempotency-key-age")
            reopen = { try await PostgresStore(url: url, create: false) }
        }
        let blob = kind == .sqlite ? "X'\(hex)'" : "'\\x\(hex)'::bytea"
        for statement in [
            """
            INSERT INTO drawing (name, imagePath, imageSHA256, width, height, zoom, crs, singleMarker, nextNumber, createdAt, regionsRevision, uuidSeed, revision)
            VALUES ('Old', '/nowhere/plan.png', '\(digest)', 400, 300, 8, 'leaflet', \(kind == .sqlite ? "0" : "false"), 1, 1704067200000, 0, 5, 1)
            """,
            "INSERT INTO revision (drawingId, number, imagePath, imageSHA256, width, height, createdAt) VALUES (1, 1, '/nowhere/plan.png', '\(digest)', 400, 300, 1704067200000)",
            "INSERT INTO image (sha256, bytes) VALUES ('\(digest)', \(blob))",
        ] {
            try await StoreFixtures.execute(old, statement)
        }
        let store = try await reopen()
        switch store {
        case let sqlite as SQLiteStore: #expect(try await sqlite.appliedMigrations().suffix(2) == [StoreSchema.v15, StoreSchema.v16])
        case let postgres as PostgresStore: #expect(try await postgres.appliedMigrations().suffix(2) == ["pg12-idempotency-key-age", "pg13-pdf-page"])
        default: Issue.record("unknown store kind")
        }
        #expect(StoreSchema.v16 == "v16-pdf-page")
        let drawing = try await store.drawingRecord(named: "Old")
        #expect(drawing.pdf == nil && drawing.width == 400 && drawing.height == 300)
        #expect(try await store.image(of: "Old") == DrawingImage(sha256: digest, bytes: pngBytes))
        #expect(try await store.revisions(of: "Old").map(\.pdf) == [nil])
        let path = try Self.file(Self.landscape, in: folder, name: "rev2.pdf")
        _ = try await store.reviseDrawing("Old", NewRevision(imagePath: path, pdf: PDFPageImage(page: 1, dpi: 72, width: 842, height: 595)),
                                          dryRun: false, author: nil)
        #expect(try await store.drawingRecord(named: "Old").pdf == PDFSource(page: 1, dpi: 72))
        #expect(try await store.revisions(of: "Old").map(\.pdf) == [nil, PDFSource(page: 1, dpi: 72)])
    }
}

/// `store migrate` SQLite -> PostgreSQL -> SQLite keeps the PDF columns of drawings and revisions, and the PDF's bytes.
@Suite(.enabled(if: TestDatabases.required, "no PostgreSQL test cluster (PLANMARK_TEST_POSTGRES) and not CI"))
struct PDFDrawingMigrateTests {
    @Test func sqliteToPostgresAndBackKeepsThePDFColumns() async throws {
        let (store, folder) = try await PDFDrawingTests.storeWithMarkers(.sqlite)
        let sqlite = store as! SQLiteStore
        let pdf = try PDFDrawingTests.file(PDFDrawingTests.portrait, in: folder, name: "plan.pdf")
        _ = try await store.addDrawing(NewDrawing(name: "P", imagePath: pdf, pdf: PDFPageImage(page: 2, dpi: 300, width: 2480, height: 3509)),
                                       regions: [])
        _ = try await store.reviseDrawing("A", NewRevision(imagePath: pdf, pdf: PDFPageImage(page: 1, dpi: 72, width: 595, height: 842)),
                                          dryRun: false, author: nil)
        let url = try TestDatabases.fresh()
        try await copyStore(from: try SQLiteTableReader(path: sqlite.path), to: try await PostgresTableWriter(url: url), destinationName: "there")
        let there = try await PostgresStore(url: url, create: false)
        #expect(try await there.drawings().map(\.drawing) == (try await store.drawings().map(\.drawing)))
        #expect(try await there.drawings().map(\.drawing.pdf) == [PDFSource(page: 1, dpi: 72), PDFSource(page: 2, dpi: 300)])
        for name in ["A", "P"] {
            #expect(try await there.revisions(of: name) == (try await store.revisions(of: name)))
            #expect(try await there.image(of: name) == (try await store.image(of: name)))
        }
        #expect(try await there.revisions(of: "A").map(\.pdf) == [nil, PDFSource(page: 1, dpi: 72)])
        #expect(try await there.image(of: "P").sha256 == sha256sum(PDFDrawingTests.portrait))

        let back = folder.appendingPathComponent("back.sqlite").path
        let reader = try await PostgresTableReader(url: url)
        try await copyStore(from: reader, to: try SQLiteTableWriter(path: back), destinationName: back)
        await reader.close()
        let copy = try SQLiteStore(path: back, create: false)
        for (table, order) in [("drawing", "id"), ("revision", "drawingId, number"), ("image", "sha256")] {
            #expect(try await StoreFixtures.rows(copy, table, order: order) == (try await StoreFixtures.rows(store, table, order: order)))
        }
        #expect(try await StoreFixtures.texts(copy, "SELECT pdfPage || ' ' || pdfDPI FROM revision WHERE pdfPage IS NOT NULL ORDER BY drawingId, number")
                == ["1 72", "2 300"])
    }
}
