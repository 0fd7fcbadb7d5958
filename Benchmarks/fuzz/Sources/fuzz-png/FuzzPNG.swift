import FuzzDriver
import PlanMarkRender

/// One input through `PNGDecoder().decode(data:source:)` with the default limits: it must give an
/// image of the size its header states or a typed `RenderError`; anything else is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let image = try PNGDecoder().decode(data: bytes, source: "fuzz")
        precondition(image.width > 0 && image.height > 0, "decoded an empty image")
        precondition(image.pixels.count == image.width * image.height * 4, "pixel buffer does not match the size")
    } catch {
        _ = error.description  // a typed RenderError, printable in one line
    }
    return 0
}

/// The executable's entry point (SwiftPM links `main` to `<module>_main`): hands over to libFuzzer.
@_cdecl("fuzz_png_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzPNG(data, size) }
}
