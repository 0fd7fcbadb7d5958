import Foundation
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkPostgres
import PlanMarkRender
import PlanMarkSQLite
import PlanMarkStore
import PlanMarkStoreTestSupport
import PlanMarkTestSupport
import Testing

/// The kinds of store the BCF tests run against (both when a PostgreSQL test cluster is set or under CI).
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static let kinds: [StoreKind] = TestDatabases.required ? allCases : [.sqlite]

    /// A new empty store of this kind (SQLite in `folder`).
    func store(in folder: URL, file: String = "store.sqlite") async throws -> any AnnotationStore {
        switch self {
        case .sqlite: return try SQLiteStore(path: folder.appendingPathComponent(file).path, create: true)
        case .postgres: return try await PostgresStore(url: try TestDatabases.fresh(), create: true)
        }
    }
}

/// A store with drawing "Level 2" (1000 x 800, a real PNG: a grey grid on white) in two rooms, two users, and three
/// markers with every field, comments and status changes, all typed here: what the tests expect is worked out from
/// these values.
struct BCFFixture {
    let folder: URL
    let store: any AnnotationStore
    let drawing = "Level 2"
    let imagePath: String

    static let width = 1000, height = 800
    /// Allowed area 20...980 x 20...780; rooms "2.01 Office" (x < 500) and "2.02" (x > 500), sharing the wall x = 500.
    static let regions: [Region] = [
        rectangle("area", .allowed, 20, 20, 980, 780),
        rectangle("2.01", .room, 20, 20, 500, 780, name: "Office"),
        rectangle("2.02", .room, 500, 20, 980, 780),
    ]

    static func rectangle(_ id: String, _ kind: RegionKind, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, name: String? = nil) -> Region {
        try! Region(id: id, kind: kind, name: name, coordinates: [[[PixelPoint(x: x0, y: y0), PixelPoint(x: x1, y: y0),
                                                                    PixelPoint(x: x1, y: y1), PixelPoint(x: x0, y: y1)]]])
    }

    /// The users: ana manages, kim works for Acme.
    static let ana = User(name: "ana", email: "ana@build.example", createdAt: Timestamp(milliseconds: 0))
    static let kim = User(name: "kim", email: "kim@acme.example", company: "Acme", createdAt: Timestamp(milliseconds: 0))

    /// The markers as typed: position, note, category, priority, assignee, due.
    static let note1 = "Crack in the screed\nalong the wall & <door> \"north\""
    static let note2 = "Paint run – 2ᵉ coat ✓"

    /// Makes the store. Marker 1 (150, 100): ana places it, kim moves it to ready, ana rejects it ("still cracked"),
    /// kim comments; marker 2 (700, 400): placed by "bob" (no user), assigned to Acme (a company, not a user), due;
    /// marker 3 (500, 600) on the wall: no note, no category, closed by ana.
    static func make(_ kind: StoreKind) async throws -> BCFFixture {
        let folder = try TestFolder.make("planmark-bcf")
        let store = try await kind.store(in: folder)
        let imagePath = folder.appendingPathComponent("plan.png").path
        try sheetPNG().write(to: URL(fileURLWithPath: imagePath))
        let fixture = BCFFixture(folder: folder, store: store, imagePath: imagePath)
        _ = try await store.addDrawing(NewDrawing(name: fixture.drawing, imagePath: imagePath), regions: regions)
        _ = try await store.addUser(ana)
        _ = try await store.addUser(kim)
        let name = fixture.drawing
        _ = try await store.addMarker(to: name, NewMarker(position: PixelPoint(x: 150, y: 100), note: note1, category: "Floor", priority: .high,
                                                           assignee: "kim", due: DueDate(text: "2026-12-24")), author: "ana")
        _ = try await store.setStatus(.ready, reason: nil, ofMarker: 1, in: name, author: "kim")
        _ = try await store.setStatus(.open, reason: "still cracked", ofMarker: 1, in: name, author: "ana")
        _ = try await store.comment("Grout missing too.\nSee photo.", onMarker: 1, in: name, author: "kim")
        _ = try await store.addMarker(to: name, NewMarker(position: PixelPoint(x: 700, y: 400), note: note2, category: "Paint", priority: .low,
                                                           assignee: "Acme", due: DueDate(text: "2027-01-05")), author: "bob")
        _ = try await store.addMarker(to: name, NewMarker(position: PixelPoint(x: 500, y: 600)), author: nil)
        _ = try await store.setStatus(.closed, reason: nil, ofMarker: 3, in: name, author: "ana")
        return fixture
    }

    /// A white sheet with a grey 50-pixel grid, as a PNG.
    static func sheetPNG() throws -> Data {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width where x % 50 == 0 || y % 50 == 0 {
                let i = (y * width + x) * 4
                pixels[i] = 160; pixels[i + 1] = 160; pixels[i + 2] = 160
            }
        }
        return Data(try PNGEncoder().encode(RGBAImage(width: width, height: height, pixels: pixels)))
    }

    /// Every marker of the drawing, by number.
    func markers() async throws -> [Marker] {
        var markers: [Marker] = []
        try await store.forEachMarker(in: drawing, filter: MarkerFilter()) { markers.append($0); return true }
        return markers
    }
}

/// Runs bcf_oracle.py (IfcOpenShell's bcf-client) with the `python3` on the PATH, where `pip install bcf-client` put it.
enum Oracle {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("bcf_oracle.py").path

    /// Whether bcf-client is there; under CI=true its absence is a failure (`.ci/run` installs it).
    static let available: Bool = {
        let ok = (try? run(["-c", "import bcf.bcfxml"]))?.status == 0
        if !ok && ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("bcf-client is not installed (pip install bcf-client)") }
        return ok
    }()

    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    static func run(_ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let out = ChildProcess.pipe(), err = ChildProcess.pipe()
        process.standardOutput = out
        process.standardError = err
        try ChildProcess.run(process)
        // Both pipes read at once, so that a full one cannot stop the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        return Output(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The oracle's JSON answer to `arguments`; records the failure and throws when it fails.
    static func json(_ arguments: [String]) throws -> Any {
        let output = try run([script] + arguments)
        guard output.status == 0 else {
            throw OracleFailure(description: "bcf_oracle.py \(arguments.joined(separator: " ")) exited \(output.status): \(output.stderr)")
        }
        return try JSONSerialization.jsonObject(with: output.stdout)
    }
}

struct OracleFailure: Error, CustomStringConvertible {
    var description: String
}
