// swift-tools-version:6.1
import PackageDescription

// Worst-case scaling of the geometry core: `bash run.sh` from this folder (release build).
let package = Package(
    name: "geometry-scaling",
    platforms: [.macOS(.v14)],
    // `PlanMark` is a link to the repository root, so the dependency has the package's own name.
    dependencies: [.package(path: "PlanMark")],
    targets: [
        .executableTarget(
            name: "geometry-scaling",
            dependencies: [.product(name: "PlanMarkGeometry", package: "PlanMark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
