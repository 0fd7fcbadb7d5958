import PlanMarkGeometry
import Testing
@testable import PlanMarkRender

/// The names of pyramids (`TileKey`) and where `TileFolder` puts them: a PNG's by its SHA-256 alone, as before PDFs; a
/// page of a PDF by SHA-256, page and dpi, so two pages (or two resolutions) of one PDF, which share the SHA-256 of its
/// bytes, have two pyramids.
@Suite struct TileKeyTests {
    static let sha = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

    @Test func namesOfPNGAndPDFPyramids() {
        #expect(TileKey(sha256: Self.sha).name == Self.sha)
        #expect(TileKey(sha256: Self.sha, page: 2, dpi: 300).name == Self.sha + "-p2-300")
        let folder = TileFolder(root: "/cache/")
        #expect(folder.path(of: TileCoordinate(z: 9, x: 3, y: 4), key: TileKey(sha256: Self.sha, page: 12, dpi: 150))
            == "/cache/\(Self.sha)-p12-150/9/3/4.png")
        #expect(folder.pyramid(TileKey(sha256: Self.sha)) == "/cache/\(Self.sha)")
        #expect(folder.pdfFile(sha256: Self.sha) == "/cache/.pdf/\(Self.sha).pdf")
    }

    /// Two pages and two resolutions of one PDF, and the PDF's own SHA-256 as a PNG's key: four keys, four folders.
    @Test func pagesAndResolutionsOfOnePDFAreApart() {
        let keys = [TileKey(sha256: Self.sha), TileKey(sha256: Self.sha, page: 1, dpi: 300), TileKey(sha256: Self.sha, page: 2, dpi: 300),
                    TileKey(sha256: Self.sha, page: 1, dpi: 150)]
        #expect(Set(keys).count == 4)
        #expect(Set(keys.map(\.name)).count == 4)
        #expect(Set(keys.map { TileFolder(root: "/c").pyramid($0) }).count == 4)
    }

    /// A folder's name read back: every key's own name; nothing else (temporary folders, the PDFs' folder, upper case,
    /// a short digest, page 0, a leading zero, a sign, extra parts).
    @Test func namesReadBack() {
        for key in [TileKey(sha256: Self.sha), TileKey(sha256: Self.sha, page: 1, dpi: 18), TileKey(sha256: Self.sha, page: 2000, dpi: 2400)] {
            #expect(TileKey(name: key.name) == key)
            #expect(TileKey(name: key.name)?.pdf?.page == key.pdf?.page && TileKey(name: key.name)?.pdf?.dpi == key.pdf?.dpi)
        }
        for name in [".pdf", ".building-12-\(Self.sha)-7", ".evicting-\(Self.sha)-1-2", Self.sha.uppercased(), String(Self.sha.dropLast()),
                     Self.sha + "-p0-300", Self.sha + "-p01-300", Self.sha + "-p1-+300", Self.sha + "-p1", Self.sha + "-1-300",
                     Self.sha + "-p1-300-x", Self.sha + "-p1-", Self.sha + ".pdf"] {
            #expect(TileKey(name: name) == nil, "\(name)")
        }
    }

    /// The levels a PDF drawing has above its pyramid: 850 x 1100 at zoom 8 with two is served at levels 5...10, its
    /// pyramid 5...8; at level 10 (f = 1/4) the drawing is 3400 x 4400 pixels, 14 x 18 tiles. Without them, as before.
    @Test func schemeWithVectorLevels() throws {
        let pdf = try #require(TileScheme(width: 850, height: 1100, zoom: 8, vectorLevels: 2))
        #expect(pdf.levels == 5...8 && pdf.servedLevels == 5...10 && pdf.topZoom == 10)
        #expect(pdf.extent(at: 10) == (3400, 4400) && pdf.columns(at: 10) == 14 && pdf.rows(at: 10) == 18)
        #expect(pdf.serves(TileCoordinate(z: 10, x: 13, y: 17)) && !pdf.contains(TileCoordinate(z: 10, x: 13, y: 17)))
        #expect(!pdf.serves(TileCoordinate(z: 10, x: 14, y: 0)) && !pdf.serves(TileCoordinate(z: 11, x: 0, y: 0)))
        let png = try #require(TileScheme(width: 850, height: 1100, zoom: 8))
        #expect(png.servedLevels == png.levels && png.topZoom == 8 && !png.serves(TileCoordinate(z: 9, x: 0, y: 0)))
        #expect(pdf.tileCount == png.tileCount)
        #expect(TileScheme(width: 850, height: 1100, zoom: 8, vectorLevels: -1) == nil)
    }
}
