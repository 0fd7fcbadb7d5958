import Foundation
import Testing
@testable import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkTestSupport

/// Writes `text` to a fresh temporary file with `name` and returns its path.
func temporaryFile(_ name: String, _ text: String) throws -> String {
    let folder = try TestFolder.make("planmark-formats")
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
}

private func rows(_ name: String, _ text: String, conversion: LatLngConversion? = nil) throws -> [MarkerRow] {
    var reader = try MarkerFileReader(path: try temporaryFile(name, text), format: nil, conversion: conversion)
    return try reader.readAll()
}

/// Reading markers files: CSV and GeoJSON, ids, line numbers, bad rows, bad files.
@Suite struct MarkerFileReaderTests {
    @Test func csvBasics() async throws {
        let got = try rows("m.csv", "\u{FEFF}id,x,y\r\nA,1,2\r\n\r\n\"B, 2\", 3.5 ,\"4\"\r\n,5,6\r\nD,abc,1\r\nE,1\r\nF,inf,2\r\n")
        #expect(got == [
            MarkerRow(id: "A", line: 2, position: PixelPoint(x: 1, y: 2), ref: "A"),
            MarkerRow(id: "B, 2", line: 4, position: PixelPoint(x: 3.5, y: 4), ref: "B, 2"),
            MarkerRow(id: "3", line: 5, position: PixelPoint(x: 5, y: 6)),
            MarkerRow(id: "D", line: 6, position: nil, ref: "D"),
            MarkerRow(id: "E", line: 7, position: nil, ref: "E"),
            MarkerRow(id: "F", line: 8, position: nil, ref: "F"),
        ])
    }

    @Test func columnsInAnyOrderWithoutIDs() async throws {
        let got = try rows("m.csv", "y,x\n2,1\n4,3")
        #expect(got == [
            MarkerRow(id: "1", line: 2, position: PixelPoint(x: 1, y: 2)),
            MarkerRow(id: "2", line: 3, position: PixelPoint(x: 3, y: 4)),
        ])
    }

    /// lat,lng rows become pixels at the zoom: Leaflet at zoom 2 has scale 4, so x = 4 lng, y = -4 lat.
    @Test func latLngRows() async throws {
        let got = try rows("m.csv", "id,lat,lng\n1,-10,20.5\n", conversion: LatLngConversion(crs: .leaflet, zoom: 2))
        #expect(got.first?.position == PixelPoint(x: 82, y: 40))
        // flutter_map at zoom 0 has scale 256.
        let flutter = try rows("m.csv", "lat,lng\n-0.5,1\n", conversion: LatLngConversion(crs: .flutter, zoom: 0))
        #expect(flutter.first?.position == PixelPoint(x: 256, y: 128))
    }

    @Test(arguments: [
        ("", "m.csv:1: empty file: expected a CSV header naming x,y or lat,lng", FormatError.Kind.malformed),
        ("1,2\n3,4\n", "m.csv:1: unknown column \"1\" (expected a header naming x,y or lat,lng, and optionally id, note, author, uuid, status, category, priority, assignee, due, capturedAt)", .malformed),
        ("id,x,z\n", "m.csv:1: unknown column \"z\" (expected a header naming x,y or lat,lng, and optionally id, note, author, uuid, status, category, priority, assignee, due, capturedAt)", .malformed),
        ("id,x\n", "m.csv:1: the header must name x,y or lat,lng", .malformed),
        ("\n\nx,y,lat\n", "m.csv:3: the header names both x,y and lat,lng; use one pair", .malformed),
        ("lat,lng\n1,2\n", "m.csv:1: the file gives lat,lng; --zoom is required to convert it to pixels", .usage),
        ("x,y\n1,2\n3,4,5\n", "m.csv:3: 3 fields, but the header names 2", .malformed),
        ("id,x,y\n\"a,1,2\n", "m.csv:2: unterminated quoted field (a line break inside quotes is not supported)", .malformed),
    ])
    func badFiles(_ text: String, _ message: String, _ kind: FormatError.Kind) throws {
        let path = try temporaryFile("m.csv", text)
        do {
            var reader = try MarkerFileReader(path: path, format: nil, conversion: nil)
            _ = try reader.readAll()
            Issue.record("accepted")
        } catch {
            #expect(error.description == path + message.dropFirst("m.csv".count))
            #expect(error.kind == kind)
        }
    }

    @Test func missingFile() async {
        #expect(throws: FormatError(.missingInput, source: "/nonexistent/m.csv", message: "no such file")) {
            _ = try MarkerFileReader(path: "/nonexistent/m.csv", format: nil, conversion: nil)
        }
    }

    /// Enough rows to cross several blocks and the parallel split: every row and line number survives.
    @Test func largeFileAcrossBlocks() async throws {
        var text = "id,x,y\n"
        let count = 400_000
        for k in 0..<count {
            if k % 1000 == 999 { text += "\n" }  // a blank line now and then
            text += "m\(k),\(k % 20000).5,\(k / 20000)\n"
        }
        var reader = try MarkerFileReader(path: try temporaryFile("big.csv", text), format: nil, conversion: nil)
        var seen = 0
        var expectedLine = 2
        var batches = 0
        while let batch = try reader.nextBatch(maxCount: 50_000) {
            batches += 1
            #expect(batch.count <= 50_000)
            for row in batch {
                if seen % 1000 == 999 { expectedLine += 1 }
                guard row.id == "m\(seen)", row.line == expectedLine,
                      row.position == PixelPoint(x: Double(seen % 20000) + 0.5, y: Double(seen / 20000))
                else {
                    Issue.record("row \(seen): \(row), expected line \(expectedLine)")
                    return
                }
                seen += 1
                expectedLine += 1
            }
        }
        #expect(seen == count)
        #expect(batches >= 8)
    }

    @Test func geoJSONPoints() async throws {
        let text = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","id":"a","properties":{"note":"crack"},"geometry":{"type":"Point","coordinates":[1.5,2]}},
          {"type":"Feature","properties":{"id":9},"geometry":{"type":"Point","coordinates":[3,4]}},
          {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":["x",4]}}
        ]}
        """
        let got = try rows("m.geojson", text)
        #expect(got == [
            MarkerRow(id: "a", line: 0, position: PixelPoint(x: 1.5, y: 2), note: "crack", ref: "a"),
            MarkerRow(id: "9", line: 0, position: PixelPoint(x: 3, y: 4), ref: "9"),
            MarkerRow(id: "3", line: 0, position: nil),
        ])
    }

    @Test func geoJSONErrors() async throws {
        let path = try temporaryFile("m.geojson", #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[]}}]}"#)
        #expect(throws: FormatError(.malformed, source: path, path: "$.features[0].geometry", message: "expected a Point geometry")) {
            _ = try MarkerFileReader(path: path, format: nil, conversion: nil)
        }
        let broken = try temporaryFile("m.json", "{\"type\":\"FeatureCollection\",\n\"features\":[\n{]}")
        #expect(throws: FormatError(.malformed, source: broken, line: 3, message: "expected a string")) {
            _ = try MarkerFileReader(path: broken, format: nil, conversion: nil)
        }
    }
}
