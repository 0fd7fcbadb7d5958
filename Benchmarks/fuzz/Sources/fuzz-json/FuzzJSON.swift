import FuzzDriver
import PlanMarkFormats

/// One input through `JSONParser.parse`: a value or a `JSONParser.Failure`. A value must serialise
/// and parse back to an equal value (finite numbers), and `parseDocument` must agree with `parse`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    let value: JSONValue
    do {
        value = try JSONParser.parse(bytes)
    } catch {
        precondition(error.line >= 1, "a failure without a line")
        precondition((try? JSONParser.parseDocument(bytes)) == nil, "parseDocument accepted what parse refused")
        return 0
    }
    guard let document = try? JSONParser.parseDocument(bytes), document.root == value else {
        preconditionFailure("parseDocument disagrees with parse")
    }
    if !value.containsNonFiniteNumber {
        let text = value.serialized
        guard let again = try? JSONParser.parse(Array(text.utf8)) else { preconditionFailure("re-serialised text does not parse: \(text)") }
        precondition(again == value, "round trip changed the value: \(text)")
        precondition(again.serialized == text, "serialising is not stable")
    }
    return 0
}

/// The executable's entry point (SwiftPM links `main` to `<module>_main`): hands over to libFuzzer.
@_cdecl("fuzz_json_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzJSON(data, size) }
}
