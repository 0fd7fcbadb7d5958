import PlanMarkGeometry
import Testing
@testable import PlanMarkFormats

/// A calibrated drawing's areas and perimeters in the regions' GeoJSON: rounded for people, exact beside.
@Suite struct RegionsGeoJSONWriterTests {
    /// A 500 x 500 px room at the doubles' old 1:100-at-254-dpi scale, 0.009999999999999998 m per pixel:
    /// 250,000 px2 times its square is 24.999999999999993 m2 and 2,000 px times it 19.999999999999996 m
    /// (Python: 250000 * m * m, 2000 * m). `area` says 25 (0.01 m²), `perimeter` 20 (1 mm); the Exact keys
    /// keep the doubles.
    @Test func roundedAndExact() throws {
        let room = try Region(id: "R", name: "Store", coordinates: [[
            [PixelPoint(x: 0, y: 0), PixelPoint(x: 500, y: 0), PixelPoint(x: 500, y: 500), PixelPoint(x: 0, y: 500)]]])
        let text = RegionsGeoJSONWriter.featureCollection([room], metresPerPixel: 0.009999999999999998)
        #expect(text.contains(#""properties":{"kind":"room","name":"Store","area":25,"perimeter":20,"areaExact":24.999999999999993,"perimeterExact":19.999999999999996}"#), "\(text)")
        // No scale: none of the four keys.
        let plain = RegionsGeoJSONWriter.featureCollection([room])
        #expect(plain.contains(#""properties":{"kind":"room","name":"Store"}"#), "\(plain)")
    }
}
