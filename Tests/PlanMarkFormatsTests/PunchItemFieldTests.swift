import Foundation
import Testing
@testable import PlanMarkFormats
import PlanMarkGeometry

/// The punch-item fields of markers files, and their value types.
@Suite struct PunchItemFieldTests {
    static func read(_ name: String, _ text: String) throws -> [MarkerRow] {
        var reader = try MarkerFileReader(path: try temporaryFile(name, text), format: nil, conversion: nil)
        return try reader.readAll()
    }

    @Test func csvColumns() async throws {
        let text = """
            id,uuid,number,x,y,status,category,priority,assignee,due,capturedAt,note,author,rooms,createdAt,updatedAt
            P-1,5F0C1A2B-3C4D-4E5F-8A6B-7C8D9E0F1A2B,7,10,20,ready,"Tiling, floor",high,Ben,2026-12-01,2026-11-20T09:41:07.250+01:00,crack,ana,2.04;2.05,x,y
            ,,8,11,21,,,,,,,,,,,

            """
        let rows = try Self.read("m.csv", text)
        #expect(rows.count == 2)
        let first = rows[0]
        #expect(first.ref == "P-1" && first.uuid?.text == "5f0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b")
        #expect(first.status == "ready" && first.category == "Tiling, floor" && first.priority == "high" && first.assignee == "Ben")
        #expect(first.due == DueDate(year: 2026, month: 12, day: 1) && first.capturedAt?.text == "2026-11-20T09:41:07.250+01:00")
        #expect(first.note == "crack" && first.author == "ana" && first.position == PixelPoint(x: 10, y: 20))
        #expect(rows[1] == MarkerRow(id: "2", line: 3, position: PixelPoint(x: 11, y: 21)))
        #expect(rows[1].hasOnlyPosition && !first.hasOnlyPosition)
    }

    @Test(arguments: [
        ("x,y,uuid\n1,2,not-a-uuid\n", "m.csv:2: uuid \"not-a-uuid\" is not RFC 4122 text (8-4-4-4-12 hexadecimal digits)"),
        ("x,y,due\n1,2,2026-02-30\n", "m.csv:2: due \"2026-02-30\" is not a date YYYY-MM-DD"),
        ("x,y,capturedAt\n1,2,2026-11-20T09:41:07\n", "m.csv:2: capturedAt \"2026-11-20T09:41:07\" is not an RFC 3339 time with an offset (2026-11-20T09:41:07+01:00)"),
    ])
    func csvBadValuesNameTheLine(text: String, message: String) async throws {
        do {
            _ = try Self.read("m.csv", text)
            Issue.record("accepted \(text)")
        } catch let error as FormatError {
            #expect(error.description.hasSuffix(message), "\(error.description)")
        }
    }

    /// A PlanMark export: the feature id is the number, the file's reference is `properties.id`.
    @Test func geoJSONExportProperties() async throws {
        let text = """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":7,"geometry":{"type":"Point","coordinates":[10,20]},"properties":{"id":"P-1","number":7,
               "uuid":"5f0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b","status":"closed","category":null,"priority":"low","assignee":"Cy",
               "due":"2027-01-31","capturedAt":"2026-11-20T08:41:07Z","note":null,"author":"ana","rooms":["2.04"]}},
              {"type":"Feature","id":8,"geometry":{"type":"Point","coordinates":[11,21]},"properties":{"id":null,"number":8}},
              {"type":"Feature","id":"Q-9","geometry":{"type":"Point","coordinates":[12,22]},"properties":{}}
            ]}
            """
        let rows = try Self.read("m.geojson", text)
        #expect(rows[0].ref == "P-1" && rows[0].uuid?.text == "5f0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b" && rows[0].status == "closed")
        #expect(rows[0].category == nil && rows[0].priority == "low" && rows[0].assignee == "Cy" && rows[0].due?.text == "2027-01-31")
        #expect(rows[0].capturedAt?.text == "2026-11-20T08:41:07Z" && rows[0].author == "ana")
        #expect(rows[1].ref == nil && rows[2].ref == "Q-9")
    }

    @Test func dueDates() async {
        #expect(DueDate(text: "2024-02-29")?.text == "2024-02-29")
        for bad in ["2023-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-1-01", "26-01-01", "2026/01/01", "0000-01-01", " 2026-01-01"] {
            #expect(DueDate(text: bad) == nil, "\(bad)")
        }
        #expect(DueDate(text: "1900-02-29") == nil && DueDate(text: "2000-02-29") != nil)
        #expect(DueDate(text: "2026-01-31")! < DueDate(text: "2026-02-01")!)
        // 0 ms is 1970-01-01; 1,735,787,045,678 ms is 2025-01-02T03:04:05.678Z; -1 ms is 1969-12-31.
        #expect(DueDate(utcMilliseconds: 0).text == "1970-01-01")
        #expect(DueDate(utcMilliseconds: 1_735_787_045_678).text == "2025-01-02")
        #expect(DueDate(utcMilliseconds: -1).text == "1969-12-31")
        #expect(DueDate(utcMilliseconds: 951_782_400_000).text == "2000-02-29")
    }

    @Test func captureTimes() async {
        for good in ["2026-11-20T09:41:07Z", "2026-11-20t09:41:07z", "2026-11-20T09:41:07.250+01:00", "2016-12-31T23:59:60-08:00",
                     "2026-11-20T09:41:07.123456789-05:30"] {
            #expect(CaptureTime(text: good)?.text == good, "\(good)")
        }
        for bad in ["2026-11-20T09:41:07", "2026-11-20 09:41:07Z", "2026-11-20T24:00:00Z", "2026-11-20T09:41:07+0100",
                    "2026-11-20T09:41:07.+01:00", "2026-02-30T09:41:07Z", "2026-11-20T09:41:07+24:00", "2026-11-20T09:41Z"] {
            #expect(CaptureTime(text: bad) == nil, "\(bad)")
        }
    }

    @Test func uuids() async {
        #expect(MarkerUUID(text: "5F0C1A2B-3C4D-4E5F-8A6B-7C8D9E0F1A2B")?.text == "5f0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b")
        for bad in ["5f0c1a2b3c4d4e5f8a6b7c8d9e0f1a2b", "{5f0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b}", "5f0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2g",
                    "5f0c1a2b-3c4d-4e5f-8a6b7-c8d9e0f1a2b", ""] {
            #expect(MarkerUUID(text: bad) == nil, "\(bad)")
        }
    }
}
