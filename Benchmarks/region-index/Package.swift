// swift-tools-version:6.1
import PackageDescription

// Grid versus packed R-tree as the region index: `swift run -c release region-index` from this folder
// (after Benchmarks/validate/generate.py has written Benchmarks/data/).
let package = Package(
    name: "region-index",
    platforms: [.macOS(.v14)],
    // `PlanMark` is a link to the repository root, so the dependency has the package's own name.
    dependencies: [.package(path: "PlanMark")],
    targets: [
        .executableTarget(
            name: "region-index",
            dependencies: [
                .product(name: "PlanMarkGeometry", package: "PlanMark"),
                .product(name: "PlanMarkFormats", package: "PlanMark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
