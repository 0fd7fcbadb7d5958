/// Areas of rings, polygons and regions in square pixels (the shoelace formula in doubles).
///
/// A region's area is what it covers: each polygon's outer ring minus its holes, summed over a
/// multipolygon's polygons (they never overlap: `Region` refuses rings that touch or nest wrongly).
/// In square metres it is `area * metresPerPixel * metresPerPixel` (`Calibration`).
extension Ring {
    /// The area enclosed by the ring, in square pixels, whatever its orientation.
    /// - Complexity: O(n) for n vertices.
    public var area: Double { abs(doubleSignedArea) / 2 }
}

extension Polygon {
    /// The outer ring's area minus its holes' areas, in square pixels.
    /// - Complexity: O(n) for n vertices in all rings.
    public var area: Double {
        var total = exterior.area
        for hole in holes { total -= hole.area }
        return total
    }
}

extension Region {
    /// The sum of its polygons' areas (holes subtracted), in square pixels.
    /// - Complexity: O(n) for n vertices in all rings.
    public var area: Double {
        var total = 0.0
        for polygon in polygons { total += polygon.area }
        return total
    }
}
