// swift-tools-version:6.1
import PackageDescription

// Imports point one way: front doors -> report -> export -> store / renderer -> formats -> geometry.
// PlanMarkGeometry depends on the Swift standard library only.
let package = Package(
    name: "PlanMark",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "planmark", targets: ["planmark"]),
        .executable(name: "planmark-server", targets: ["planmark-server"]),
        .executable(name: "planmark-pdf", targets: ["planmark-pdf"]),
        .library(name: "PlanMarkGeometry", targets: ["PlanMarkGeometry"]),
        .library(name: "PlanMarkFormats", targets: ["PlanMarkFormats"]),
        .library(name: "PlanMarkStore", targets: ["PlanMarkStore"]),
        .library(name: "PlanMarkSQLite", targets: ["PlanMarkSQLite"]),
        .library(name: "PlanMarkPostgres", targets: ["PlanMarkPostgres"]),
        .library(name: "PlanMarkRender", targets: ["PlanMarkRender"]),
        .library(name: "PlanMarkReport", targets: ["PlanMarkReport"]),
    ],
    // `PostgreSQL` (default on): both front doors open `postgres://` stores. Off
    // (`swift build --disable-default-traits`), planmark and planmark-server are built without PlanMarkPostgres
    // and postgres-nio, and refuse a postgres:// store as a usage error: the CLI then compiles 10 modules instead
    // of 58 (no SwiftNIO, swift-crypto or BoringSSL), 98 s from clean in debug instead of 427 s.
    traits: [
        .trait(name: "PostgreSQL", description: "The front doors open postgres:// stores (PlanMarkPostgres, postgres-nio)."),
        .default(enabledTraits: ["PostgreSQL"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        // The HTTP service only; `traits: []` leaves out swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Already in the graph through Hummingbird; named here for the server tests' clients (NIO HTTP/1,
        // a service group for the live server), which replace HummingbirdTesting and its HTTP client stack.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0", traits: []),
        // Already in the graph through Hummingbird; named for the server's own channel handlers (connection cap,
        // request-head timeout, the request target's authority).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        // The PostgreSQL store only (its pool, COPY).
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
        // GET /metrics: the metrics API (already in the graph through Hummingbird's MetricsMiddleware) and its
        // Prometheus backend, which only the service imports.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // BCF files (PlanMarkBCF only): the zip (ZIPFoundation) and the XML inside it (XMLCoder).
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        .package(url: "https://github.com/CoreOffice/XMLCoder.git", from: "0.18.2"),
    ],
    targets: [
        // Coordinates, polygons, point location, marker validation. Standard library only.
        .target(name: "PlanMarkGeometry"),
        // GeoJSON and CSV readers and the report writers.
        .target(name: "PlanMarkFormats", dependencies: ["PlanMarkGeometry"]),
        // The annotation store: its contract, records, rules and use cases, written once over a back end's primitives
        // (no SQL dialect here).
        .target(name: "PlanMarkStore", dependencies: ["PlanMarkFormats", "PlanMarkGeometry"]),
        // The store in one SQLite file (GRDB): the default back end.
        .target(
            name: "PlanMarkSQLite",
            dependencies: [
                "PlanMarkStore", "PlanMarkFormats", "PlanMarkGeometry",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The annotation store in PostgreSQL (postgres-nio), for several servers on one database; and the store URL
        // (`postgres://...` or an SQLite path) both front doors open stores by.
        .target(
            name: "PlanMarkPostgres",
            dependencies: [
                "PlanMarkFormats", "PlanMarkGeometry", "PlanMarkStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // The pool's error type (its circuit breaker), which PostgresNIO does not re-export.
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // A small C target that owns libpng's setjmp/longjmp and returns error codes.
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("pthread")]),
        // FreeType, found through pkg-config.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        // Decodes drawings, draws annotations anti-aliased, encodes review PNGs.
        .target(name: "PlanMarkRender", dependencies: ["PlanMarkFormats", "PlanMarkGeometry", "CPNG", "CFreeType"]),
        // What both front doors say: the marker and drawing writers, the stored-marker review mapping and
        // the version, written once below the CLI and the service so that they cannot drift.
        .target(name: "PlanMarkExport", dependencies: ["PlanMarkGeometry", "PlanMarkFormats", "PlanMarkStore", "PlanMarkRender"]),
        // cairo (image, PDF and FreeType font APIs), found through pkg-config; the report only.
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // poppler's GLib API (PDF pages drawn with cairo), found through pkg-config; PlanMarkPDF only.
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib", providers: [.apt(["libpoppler-glib-dev"])]),
        // What PDF pages are without poppler, shared by `planmark-pdf` and its client so that the two cannot drift:
        // the limits, the pixel-size rule, the errors and their codes, the info JSON and the raw RGBA stream.
        .target(name: "PlanMarkPDFCore", dependencies: ["PlanMarkFormats", "PlanMarkRender"]),
        // PDF drawings: a document's pages, their sizes and sheet names, any rectangle of a page rendered at any scale.
        // Only `planmark-pdf` (and PlanMarkPDFTests) links it, so poppler runs in a child process of its own.
        .target(name: "PlanMarkPDF", dependencies: ["PlanMarkGeometry", "PlanMarkRender", "PlanMarkPDFCore", "CPoppler", "CCairo"]),
        // cairo's CairoScript interpreter (libcairo-script-interpreter, no pkg-config file; cairo's flags through it):
        // PlanMarkPDFVectors only.
        .systemLibrary(name: "CCairoScript", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // A PDF page's vectors carried out of `planmark-pdf` as CairoScript: the check every script passes and its replay
        // into a cairo recording surface. No poppler: planmark-pdf replays what it is about to answer (so that what makes
        // cairo or the interpreter fail costs the child), the report replays the answer onto its sheet page.
        .target(name: "PlanMarkPDFVectors", dependencies: ["PlanMarkPDFCore", "CCairo", "CCairoScript"]),
        // `planmark-pdf`: one PDF's info (JSON), one rendered rectangle (raw RGBA), one page's tile pyramid (PNG files) or
        // one page's vectors (CairoScript) under limits and rlimits, so that a crash or a hang of poppler costs one child
        // process.
        .executableTarget(
            name: "planmark-pdf",
            dependencies: ["PlanMarkPDF", "PlanMarkPDFCore", "PlanMarkPDFVectors", "PlanMarkRender", "PlanMarkGeometry",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // What glibc has but Swift's Glibc module does not show: pipe2, pidfd_open, posix_spawn's closefrom.
        .target(name: "CSpawn"),
        // The front doors' way to PDFs: runs `planmark-pdf` (posix_spawn, a pidfd, a time limit) and reads its answer.
        // No poppler.
        .target(name: "PlanMarkPDFProcess", dependencies: ["PlanMarkPDFCore", "PlanMarkRender", "PlanMarkGeometry", "CSpawn"]),
        // A drawing's sheet as pixels, whatever it was delivered as: a PNG decoded, a PDF page drawn by planmark-pdf. The
        // review image, `planmark render` and the report get their sheet here.
        .target(name: "PlanMarkSheets", dependencies: ["PlanMarkStore", "PlanMarkRender", "PlanMarkPDFCore", "PlanMarkPDFProcess"]),
        // The punch-list report (PDF through cairo, or static HTML). Only `planmark report` and the service use
        // it, so the CLI's other commands do not need cairo's code paths.
        .target(
            name: "PlanMarkReport",
            dependencies: ["PlanMarkGeometry", "PlanMarkFormats", "PlanMarkStore", "PlanMarkRender", "PlanMarkExport", "PlanMarkSheets", "CCairo", "CFreeType",
                           // A PDF drawing's sheet page as vectors: the page's CairoScript from planmark-pdf, replayed.
                           "PlanMarkPDFCore", "PlanMarkPDFVectors"]
        ),
        // Punch items to and from BIM tools: BCF 2.1 and 3.0 files (buildingSMART BCF-XML), written from and read into the
        // store; each topic's snapshot is the review image around its pin.
        .target(
            name: "PlanMarkBCF",
            dependencies: [
                "PlanMarkGeometry", "PlanMarkFormats", "PlanMarkStore", "PlanMarkRender", "PlanMarkExport", "PlanMarkSheets",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "XMLCoder", package: "XMLCoder"),
            ]
        ),
        // What both front doors share: where the store is (`StoreLocation`), how it is opened (`StoreOpener`, either back
        // end), and the exit status of each error (`ExitStatus`, `StoreError.exitStatus`).
        .target(
            name: "PlanMarkFrontDoor",
            dependencies: [
                "PlanMarkFormats", "PlanMarkStore", "PlanMarkSQLite",
                .target(name: "PlanMarkPostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),
        // The `planmark` command-line front door.
        .executableTarget(
            name: "planmark",
            dependencies: [
                "PlanMarkGeometry", "PlanMarkFormats", "PlanMarkStore", "PlanMarkRender", "PlanMarkExport",
                "PlanMarkReport",  // ReportCommand.swift only
                "PlanMarkBCF",  // export --format bcf, import of a .bcf file
                "PlanMarkFrontDoor",  // the store's location and opener, the exit statuses
                // PDF drawings and sheet sets: measured and drawn by the child process planmark-pdf (no poppler here).
                "PlanMarkPDFCore", "PlanMarkPDFProcess", "PlanMarkSheets",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The HTTP service (Hummingbird); kept out of `planmark` so the CLI builds without the HTTP stack.
        // ReviewPage/ is the browser review client (HTML, CSS, plain ES modules), copied as it is and served at `/`.
        .target(
            name: "PlanMarkServer",
            dependencies: [
                "PlanMarkGeometry", "PlanMarkFormats", "PlanMarkStore", "PlanMarkRender", "PlanMarkExport", "PlanMarkReport", "PlanMarkSheets",
                "PlanMarkBCF",  // GET /drawings/{name}/issues.bcf
                "PlanMarkFrontDoor",  // the one map from store errors to HTTP statuses and exit statuses
                // PDF drawings' tiles: drawn by the child process planmark-pdf (no poppler here).
                "PlanMarkPDFCore", "PlanMarkPDFProcess",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                // Graceful shutdown (SIGTERM) stops the reports being made.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // GET /metrics: each application's own registry, in the Prometheus text format.
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("ReviewPage")]
        ),
        // `planmark-server`, which `planmark serve` executes.
        .executableTarget(
            name: "planmark-server",
            dependencies: [
                "PlanMarkServer", "PlanMarkExport", "PlanMarkStore", "PlanMarkFrontDoor",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // Shared by the test targets: the one seeded generator of random test inputs, sha256sum.
        .target(name: "PlanMarkTestSupport", path: "Tests/PlanMarkTestSupport"),
        .testTarget(name: "PlanMarkGeometryTests", dependencies: ["PlanMarkGeometry", "PlanMarkTestSupport"], exclude: ["Vectors", "Fixtures"]),
        // Throwaway PostgreSQL databases for the tests that run against both stores.
        .target(
            name: "PlanMarkStoreTestSupport",
            dependencies: [
                "PlanMarkPostgres",
                "PlanMarkTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/PlanMarkStoreTestSupport"
        ),
        .testTarget(name: "PlanMarkPostgresTests", dependencies: ["PlanMarkPostgres", "PlanMarkStore", "PlanMarkGeometry", "PlanMarkStoreTestSupport", "PlanMarkTestSupport"]),
        .testTarget(name: "PlanMarkFormatsTests", dependencies: ["PlanMarkFormats", "PlanMarkTestSupport"]),
        .testTarget(name: "PlanMarkStoreTests", dependencies: ["PlanMarkStore", "PlanMarkSQLite", "PlanMarkPostgres", "PlanMarkTestSupport", "PlanMarkStoreTestSupport",
                                                         .product(name: "GRDB", package: "GRDB.swift")],
                    exclude: ["Fixtures"]),
        .testTarget(name: "PlanMarkRenderTests", dependencies: ["PlanMarkRender", "PlanMarkTestSupport"], exclude: ["Fixtures"]),
        // make_pdfs.py writes the PDF fixtures at test time (pycairo, pypdf); pdftoppm renders the reference pixels.
        .target(
            name: "PlanMarkPDFTestSupport", dependencies: ["PlanMarkRender", "PlanMarkTestSupport"], path: "Tests/PlanMarkPDFTestSupport",
            exclude: ["make_pdfs.py"]
        ),
        .testTarget(name: "PlanMarkPDFTests", dependencies: ["PlanMarkPDF", "PlanMarkPDFCore", "PlanMarkRender", "PlanMarkPDFTestSupport", "PlanMarkTestSupport"]),
        // Runs the built `planmark-pdf` through PDFRenderer on make_pdfs.py's fixtures (hostile ones included); pdfinfo,
        // pypdf and pdftoppm give the expected values.
        .testTarget(
            name: "PlanMarkPDFProcessTests",
            dependencies: ["PlanMarkPDFProcess", "PlanMarkPDFCore", "planmark-pdf", "PlanMarkRender", "PlanMarkGeometry", "PlanMarkPDFTestSupport",
                           "PlanMarkTestSupport"]
        ),
        // The CairoScript check on scripts written by hand, and the replay of what planmark-pdf writes (pdftotext and
        // pdfinfo read the PDFs it is painted into).
        .testTarget(
            name: "PlanMarkPDFVectorsTests",
            dependencies: ["PlanMarkPDFVectors", "PlanMarkPDFCore", "PlanMarkPDFProcess", "planmark-pdf", "CCairo", "PlanMarkRender",
                           "PlanMarkPDFTestSupport", "PlanMarkTestSupport"]
        ),
        .testTarget(
            name: "PlanMarkSheetsTests",
            dependencies: ["PlanMarkSheets", "PlanMarkStore", "PlanMarkPDFCore", "PlanMarkPDFProcess", "planmark-pdf", "PlanMarkRender",
                           "PlanMarkPDFTestSupport", "PlanMarkTestSupport"]
        ),
        // make_sheet_sets.py writes the sheet sets of SheetsCommandTests (pycairo).
        .testTarget(name: "PlanMarkCLITests", dependencies: ["planmark", "planmark-pdf", "PlanMarkRender", "PlanMarkStore", "PlanMarkSQLite", "PlanMarkTestSupport",
                                                       "PlanMarkStoreTestSupport", "PlanMarkGeometry", "PlanMarkPDFTestSupport"],
                    exclude: ["Fixtures", "make_sheet_sets.py"]),
        .testTarget(
            name: "PlanMarkServerTests",
            dependencies: [
                "PlanMarkServer", "planmark", "planmark-server", "PlanMarkTestSupport", "PlanMarkSQLite", "PlanMarkPostgres",
                "PlanMarkStoreTestSupport",
                // PDF drawings' tiles: make_pdfs.py's fixtures and pdftoppm's renders; the PDF renderer's client and program.
                "PlanMarkPDFTestSupport", "PlanMarkPDFProcess", "planmark-pdf",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // SQLite's C API, to hold a lock on a store file (the 503 test).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            // Browser/: the review page's Selenium script, run by ReviewPageBrowserTests.
            exclude: ["Browser"]
        ),
        // BCF files read by IfcOpenShell's bcf-client (PyPI), an independent reader, and files it wrote read back; hostile
        // zips and XML; an export imported into a new store of each back end.
        .testTarget(
            name: "PlanMarkBCFTests",
            dependencies: ["PlanMarkBCF", "PlanMarkStore", "PlanMarkSQLite", "PlanMarkPostgres", "PlanMarkGeometry", "PlanMarkRender",
                           "PlanMarkTestSupport", "PlanMarkStoreTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            exclude: ["bcf_oracle.py"]
        ),
        // The documentation's links (README.md, CONTRIBUTING.md, docs/*.md) and the README's length; Foundation only.
        .testTarget(name: "DocumentationTests"),
    ],
    swiftLanguageModes: [.v6]
)
