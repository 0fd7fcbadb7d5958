import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore

/// Refusals have names: each rule its own stable code, and the one line the CLI printed before they had names
/// (written out here by hand), word for word.
@Suite struct StoreRefusalTests {
    static let uuid = MarkerUUID(text: "0f4c8a52-8e1b-4d3f-9a6b-2c5e7d9f1a3b")!

    @Test(arguments: [
        (StoreRefusal.alreadyInStatus(drawing: "A", number: 1, status: .open), "already-in-status",
         "drawing \"A\": marker 1 is already open"),
        (.reasonRequired(drawing: "A", number: 2), "reason-required",
         "drawing \"A\": marker 2 is ready; sending it back to open needs a reason"),
        (.uuidNotIssued(uuid: uuid, drawing: "A", number: 9), "uuid-not-issued",
         "uuid 0f4c8a52-8e1b-4d3f-9a6b-2c5e7d9f1a3b: has the form of the uuids drawing \"A\" makes, for a marker number it has not given (9)"),
        (.markersOutsideAllowedArea(drawing: "A", numbers: [2, 3]), "markers-outside-allowed-area",
         "drawing \"A\": 2 stored marker(s) would be outside the new allowed area (2, 3); nothing changed (use --force to replace the regions anyway)"),
        (.markersOutsideAllowedArea(drawing: "A", numbers: Array(1...12)), "markers-outside-allowed-area",
         "drawing \"A\": 12 stored marker(s) would be outside the new allowed area (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ...); nothing changed (use --force to replace the regions anyway)"),
        (.drawingHasMarkers(drawing: "A", count: 1), "drawing-has-markers", "drawing \"A\": has 1 marker; remove them first or force the removal"),
        (.drawingHasMarkers(drawing: "A", count: 3), "drawing-has-markers", "drawing \"A\": has 3 markers; remove them first or force the removal"),
        (.notAStore(location: "/tmp/x.db", kind: "an SQLite database"), "not-a-store", "/tmp/x.db: an SQLite database that is not a PlanMark store"),
        (.destinationNotEmpty(destination: "new.sqlite", drawings: 2), "destination-not-empty",
         "new.sqlite: the destination has 2 drawings; migrate only into an empty store"),
        (.regionInvalidAfterTransform(drawing: "A", region: "R1", problem: "ring 0: edges cross"), "region-invalid-after-transform",
         "drawing \"A\": region R1 carried through the transform is not valid: ring 0: edges cross"),
        (.noScale(drawing: "A"), "no-scale", "drawing \"A\": no scale; calibrate it first with 'planmark drawing calibrate'"),
    ])
    func codeAndLine(refusal: StoreRefusal, code: String, line: String) {
        #expect(refusal.code.rawValue == code)
        #expect(StoreError.refused(refusal).code == code)
        #expect(StoreError.refused(refusal).description == line)
    }

    @Test func codesAreDistinctKebabCase() async {
        let codes = StoreRefusal.Code.allCases.map(\.rawValue)
        #expect(Set(codes).count == codes.count)
        for code in codes { #expect(code.allSatisfy { $0.isLowercase || $0 == "-" } && !code.hasPrefix("-") && !code.hasSuffix("-"), "\(code)") }
        #expect(StoreError.duplicateDrawing("A").code == "name-taken")
        #expect(StoreError.invalidMarker(reason: .outsideAllowedArea, position: PixelPoint(x: 0, y: 0)).code == "outside-allowed-area")
    }
}
