import Foundation
import Testing
import PlanMarkFormats
import PlanMarkGeometry

/// The fuzzing corpus (`Benchmarks/fuzz/corpus/<target>/`), found from this file's path.
enum FuzzCorpus {
    /// The repository root: two levels above this test file's folder (symbolic links resolved).
    static let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every file of target `name`'s corpus, sorted.
    static func files(_ name: String) -> [URL] {
        let folder = root.appendingPathComponent("Benchmarks/fuzz/corpus/\(name)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    /// Seeds named `bad-*` must be refused; `finding-*` (inputs the fuzzers found) must only give a
    /// value or a typed error; every other seed must give a value.
    enum Expectation { case value, error, either }

    static func expectation(_ url: URL) -> Expectation {
        let name = url.lastPathComponent
        if name.hasPrefix("bad-") { return .error }
        if name.hasPrefix("finding-") { return .either }
        return .value
    }
}

/// Every corpus file goes through the same entry points as the fuzz targets in `Benchmarks/fuzz`
/// and must give a value or a typed error, with the properties the targets check.
@Suite struct FuzzCorpusTests {
    @Test func corpusesAreThere() async {
        for name in ["json", "regions", "markers-csv"] {
            #expect(FuzzCorpus.files(name).count >= 20, "corpus \(name) at \(FuzzCorpus.root.path)")
        }
    }

    /// `fuzz-json`: a value re-serialises and parses back to an equal value; `parseDocument` agrees.
    @Test(arguments: FuzzCorpus.files("json"))
    func json(_ url: URL) async throws {
        let bytes = try FuzzCorpus.bytes(url)
        let expectation = FuzzCorpus.expectation(url)
        do {
            let value = try JSONParser.parse(bytes)
            #expect(expectation != .error, "accepted \(url.lastPathComponent)")
            #expect(try JSONParser.parseDocument(bytes).root == value)
            if !value.containsNonFiniteNumber {
                let text = value.serialized
                let again = try JSONParser.parse(Array(text.utf8))
                #expect(again == value, "\(text)")
                #expect(again.serialized == text)
            }
        } catch {
            #expect(expectation != .value, "\(url.lastPathComponent): \(error.message)")
            #expect(error.line >= 1 && !error.message.isEmpty)
            #expect(error.path == nil || error.problem != nil)
        }
    }

    /// `fuzz-regions`: regions survive the writer; the GeoJSON markers reader gives rows or an error.
    @Test(arguments: FuzzCorpus.files("regions"))
    func regions(_ url: URL) async throws {
        let bytes = try FuzzCorpus.bytes(url)
        let expectation = FuzzCorpus.expectation(url)
        do {
            let regions = try RegionsFile.parse(bytes, source: "fuzz")
            #expect(expectation != .error, "accepted \(url.lastPathComponent)")
            let written = RegionsGeoJSONWriter.featureCollection(regions)
            #expect(try RegionsFile.parse(Array(written.utf8), source: "written") == regions)
        } catch {
            #expect(expectation != .value, "\(url.lastPathComponent): \(error)")
            #expect(error.kind == .malformed && error.description.hasPrefix("fuzz"))
        }
        do {
            var reader = try MarkerFileReader(input: InputFile(bytes: bytes, source: "fuzz"), format: .geojson, conversion: nil)
            for row in try reader.readAll() {
                #expect(!row.id.isEmpty && (row.position?.isFinite ?? true))
            }
        } catch {
            #expect(error.kind == .malformed)
        }
    }

    /// `fuzz-markers-csv`: rows or an error, the same whether read in one block or in tiny blocks.
    @Test(arguments: FuzzCorpus.files("markers-csv"))
    func markersCSV(_ url: URL) async throws {
        let bytes = try FuzzCorpus.bytes(url)
        func read(blockSize: Int) -> Result<[MarkerRow], FormatError> {
            Result { () throws(FormatError) -> [MarkerRow] in
                var reader = try MarkerFileReader(input: InputFile(bytes: bytes, source: "fuzz"), format: .csv,
                                                  conversion: LatLngConversion(crs: .leaflet, zoom: 2), blockSize: blockSize)
                return try reader.readAll()
            }
        }
        let whole = read(blockSize: MarkerFileReader.blockSize)
        for blockSize in [1, 2, 7, 1 + bytes.count % 13] {
            #expect(read(blockSize: blockSize) == whole, "block size \(blockSize)")
        }
        switch (whole, FuzzCorpus.expectation(url)) {
        case (.success(let rows), let expectation):
            #expect(expectation != .error, "accepted \(url.lastPathComponent)")
            for row in rows { #expect(!row.id.isEmpty && row.line >= 1 && (row.position?.isFinite ?? true)) }
        case (.failure(let error), let expectation):
            #expect(expectation != .value, "\(url.lastPathComponent): \(error)")
            #expect(error.kind == .malformed || error.kind == .usage)
        }
    }
}
