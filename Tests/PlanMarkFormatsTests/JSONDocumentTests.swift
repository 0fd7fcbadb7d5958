import Foundation
import Testing
@testable import PlanMarkFormats
import PlanMarkGeometry

/// `JSONDocument`: every expected text below is written out by hand, and each is also read back by Foundation's
/// `JSONSerialization` (an independent reader) to the values put in.
struct JSONDocumentTests {
    struct Inner: Encodable { var b = 2; var a = "x" }
    struct Shape: Encodable {
        var zebra = 1
        var apple: Double = 12.5
        var inner = Inner()
        var list: [Int] = [3, 1, 2]
        var absent: String? = nil
        @NullWhenAbsent var always: String? = nil
        var counts: [String: Int] = ["b": 2, "B": 3, "a10": 4, "a9": 5, "é": 6]
        var ordered = OrderedCounts([("open", 2), ("closed", 1), ("ready", 0)])
    }

    @Test func membersInDeclarationOrderDictionariesInByteOrder() throws {
        let text = JSONDocument.text(Shape())
        #expect(text == #"{"zebra":1,"apple":12.5,"inner":{"b":2,"a":"x"},"list":[3,1,2],"always":null,"# +
                #""counts":{"B":3,"a10":4,"a9":5,"b":2,"é":6},"ordered":{"open":2,"closed":1,"ready":0}}"#)
        // The same text in every process: nothing depends on a dictionary's hashing.
        for _ in 0..<20 { #expect(JSONDocument.text(Shape()) == text) }
        let read = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(read["zebra"] as? Int == 1 && read["apple"] as? Double == 12.5 && read["always"] is NSNull && read["absent"] == nil)
        #expect(read["counts"] as? [String: Int] == ["b": 2, "B": 3, "a10": 4, "a9": 5, "é": 6])
    }

    @Test func numbersAsJavaScriptPrintsThem() {
        #expect(JSONDocument.text([40.0, 12.5, 1e-7, -0.0, 0.1 + 0.2, 1e21, -3]) == "[40,12.5,1e-07,0,0.30000000000000004,1e+21,-3]")
        #expect(JSONDocument.text([Int64(9_007_199_254_740_992), 7]) == "[9007199254740992,7]")
        #expect(JSONDocument.text([true, false]) == "[true,false]")
        // Every integer type, exactly (UInt64 beyond Int64 too), and a Float as the double it widens to.
        struct Integers: Encodable {
            var a: Int8 = -8, b: Int16 = 16, c: Int32 = -32, d: UInt = 7, e: UInt8 = 255, f: UInt16 = 65535, g: UInt32 = 4_294_967_295
            var h: UInt64 = 18_446_744_073_709_551_615, i: Float = 0.5
        }
        #expect(JSONDocument.text(Integers()) == #"{"a":-8,"b":16,"c":-32,"d":7,"e":255,"f":65535,"g":4294967295,"h":18446744073709551615,"i":0.5}"#)
        // A number's text made already (a rounded quantity) is written as it is.
        #expect(JSONDocument.text([JSONFragment("27.750"), JSONFragment("null"), JSONFragment(#"{"b":1,"a":[2]}"#)]) == #"[27.750,null,{"b":1,"a":[2]}]"#)
        #expect(JSONDocument.text(LatLng(lat: -0.0, lng: 1.5625)) == "[0,1.5625]")
    }

    @Test func stringsEscapedOnce() throws {
        let awkward = "a\"b\\c/d\n\t\u{1}é😀"
        let text = JSONDocument.text(["k\"ey": awkward])
        #expect(text == #"{"k\"ey":"a\"b\\c/d\n\t\u0001é😀"}"#)
        let read = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
        #expect(read == ["k\"ey": awkward])
    }

    @Test func optionalsAndNesting() {
        struct Outer: Encodable { var items: [Inner?] = [Inner(), nil]; var bounds = LatLngBounds(southWest: LatLng(lat: -2, lng: 0), northEast: LatLng(lat: 0, lng: 3)) }
        #expect(JSONDocument.text(Outer()) == #"{"items":[{"b":2,"a":"x"},null],"bounds":{"southWest":[-2,0],"northEast":[0,3]}}"#)
        #expect(JSONDocument.line(["a": 1]) == "{\"a\":1}\n")
        #expect(JSONDocument.text([String]()) == "[]" && JSONDocument.text([String: Int]()) == "{}")
        // A long array and a large dictionary: every item once, in order (items are appended in place).
        let many = Array(0..<50_000)
        #expect(JSONDocument.text(many) == "[" + many.map(String.init).joined(separator: ",") + "]")
        let rooms = Dictionary(uniqueKeysWithValues: (0..<3_000).map { ("R\($0)", $0) })
        let expected = rooms.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { "\"\($0)\":\(rooms[$0]!)" }
        #expect(JSONDocument.text(rooms) == "{" + expected.joined(separator: ",") + "}")
    }
}
