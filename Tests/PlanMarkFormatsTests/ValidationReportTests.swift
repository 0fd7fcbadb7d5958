import Testing
@testable import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkTestSupport

private func ring(_ list: [[Double]]) -> [PixelPoint] { list.map { PixelPoint(x: $0[0], y: $0[1]) } }

/// Report lines, written out by hand from the formats in the CLI contract.
@Suite struct ValidationReportTests {
    let regions: [Region]
    init() throws {
        regions = [
            try Region(id: "R1", coordinates: [[ring([[0, 0], [10, 0], [10, 10], [0, 10]])]]),
            try Region(id: "A\"1", kind: .allowed, coordinates: [[ring([[0, 0], [5, 0], [5, 10], [0, 10]])]]),
        ]
    }

    func line(_ format: ValidationReportFormat, _ row: MarkerRow) -> String {
        let validator = MarkerValidator(regions: regions)
        let report = ValidationReport(format: format, regions: regions)
        var hits: [RegionHit] = []
        let reason = row.position.map { validator.validate($0, hits: &hits) } ?? .invalidCoordinate
        if row.position == nil { hits = [] }
        return report.entry(row, reason: reason, hits: hits, isFirst: true)
    }

    @Test func jsonl() async {
        #expect(line(.jsonl, MarkerRow(id: "7", line: 2, position: PixelPoint(x: 12.5, y: 40))) ==
            #"{"id":"7","x":12.5,"y":40,"valid":false,"reason":"outside-allowed-area","regions":[]}"# + "\n")
        #expect(line(.jsonl, MarkerRow(id: "8", line: 3, position: PixelPoint(x: 10, y: 5))) ==
            #"{"id":"8","x":10,"y":5,"valid":false,"reason":"outside-allowed-area","regions":[{"id":"R1","kind":"room","location":"boundary"}]}"# + "\n")
        #expect(line(.jsonl, MarkerRow(id: "9", line: 4, position: PixelPoint(x: 5, y: 0.1))) ==
            #"{"id":"9","x":5,"y":0.1,"valid":true,"reason":null,"regions":[{"id":"R1","kind":"room","location":"inside"},{"id":"A\"1","kind":"allowed","location":"boundary"}]}"# + "\n")
        #expect(line(.jsonl, MarkerRow(id: "x", line: 5, position: nil)) ==
            #"{"id":"x","x":null,"y":null,"valid":false,"reason":"invalid-coordinate","regions":[]}"# + "\n")
    }

    @Test func csv() async {
        #expect(line(.csv, MarkerRow(id: "9", line: 4, position: PixelPoint(x: 5, y: 0.1))) == "9,5,0.1,true,,\"R1:inside;A\"\"1:boundary\"\n")
        #expect(line(.csv, MarkerRow(id: "a,b", line: 5, position: nil)) == "\"a,b\",,,false,invalid-coordinate,\n")
    }

    @Test func jsonSummary() async {
        var summary = ValidationSummary()
        summary.count(nil)
        summary.count(.outsideDrawing)
        summary.count(.outsideDrawing)
        let report = ValidationReport(format: .json, regions: regions)
        #expect(report.footer(summary) ==
            #"],"summary":{"total":3,"valid":1,"invalid":2,"byReason":{"invalid-coordinate":0,"outside-drawing":2,"outside-allowed-area":0,"outside-rooms":0}}}"# + "\n")
        #expect(ValidationReport(format: .text, regions: regions).footer(summary).hasSuffix("3 markers: 1 valid, 2 invalid (outside-drawing 2)\n"))
    }

    @Test(arguments: [(40.0, "40"), (12.5, "12.5"), (-0.0, "0"), (1e-7, "1e-07"), (0.1, "0.1"),
                      (9007199254740991, "9007199254740991"), (-3, "-3"), (Double.nan, "null")])
    func numbers(_ value: Double, _ text: String) async {
        #expect(JSONNumber.text(value) == text)
    }
}

/// The byte writer spells numbers exactly as `JSONNumber.text` does (the reference: Swift's own
/// shortest round-trip `description`, with integers and `-0` as JavaScript prints them).
@Suite struct ReportBufferTests {
    @Test(arguments: [0.5, -0.5, 1.5, -1.5, 1234.5, -0.0, 0, 40, 12.25, 1e-7, 4503599627370495.5, 2251799813685247.5,
                      9007199254740991, 9007199254740992, 1e300, -7.125, 0.1, 123456789.5, 3e15 + 0.5])
    func numbersMatchJSONNumber(_ value: Double) async {
        var buffer = ReportBuffer()
        buffer.appendNumber(value)
        #expect(buffer.text == JSONNumber.text(value))
    }

    @Test func randomHalfAndQuarterPixels() async {
        var generator = SeededGenerator()
        for _ in 0..<20000 {
            let value = Double(Int.random(in: -40_000_000...40_000_000, using: &generator)) / [1, 2, 4, 8, 1000].randomElement(using: &generator)!
            var buffer = ReportBuffer()
            buffer.appendNumber(value)
            #expect(buffer.text == JSONNumber.text(value), "\(value) (seed \(generator.seed))")
        }
    }
}
