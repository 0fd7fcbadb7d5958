// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for PlanMark's input readers: `bash run.sh` from this folder (see README.md).
// Each target is an executable whose `LLVMFuzzerTestOneInput` feeds the bytes to one public entry
// point; libFuzzer supplies `main`, so the targets are built with
// `-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library`.
let package = Package(
    name: "fuzz",
    platforms: [.macOS(.v14)],
    // `PlanMark` is a link to the repository root, so the dependency has the package's own name.
    dependencies: [.package(path: "PlanMark")],
    targets: [
        // Declares libFuzzer's `LLVMFuzzerRunDriver` for the targets' entry points.
        .target(name: "FuzzDriver"),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzDriver", .product(name: "PlanMarkFormats", package: "PlanMark")]),
        .executableTarget(name: "fuzz-regions", dependencies: ["FuzzDriver", .product(name: "PlanMarkFormats", package: "PlanMark")]),
        .executableTarget(
            name: "fuzz-markers-csv",
            dependencies: [
                "FuzzDriver",
                .product(name: "PlanMarkFormats", package: "PlanMark"),
                .product(name: "PlanMarkGeometry", package: "PlanMark"),
            ]
        ),
        .executableTarget(name: "fuzz-png", dependencies: ["FuzzDriver", .product(name: "PlanMarkRender", package: "PlanMark")]),
    ],
    swiftLanguageModes: [.v6]
)
