/// Perimeters of rings, polygons and regions in pixels.
///
/// A polygon's perimeter is the length of its whole boundary: the outer ring and every hole (a
/// column inside a room adds its outline, as a skirting board would run round it). A region's is the
/// sum over its polygons. In metres it is `perimeter * metresPerPixel` (`Calibration`).
extension Ring {
    /// The length of the closed ring (the closing edge included), in pixels.
    /// - Complexity: O(n) for n vertices.
    public var perimeter: Double {
        var total = 0.0
        var previous = vertices[vertices.count - 1]
        for vertex in vertices {
            total += previous.distance(to: vertex)
            previous = vertex
        }
        return total
    }
}

extension Polygon {
    /// The outer ring's length plus every hole's, in pixels.
    /// - Complexity: O(n) for n vertices in all rings.
    public var perimeter: Double {
        var total = exterior.perimeter
        for hole in holes { total += hole.perimeter }
        return total
    }
}

extension Region {
    /// The sum of its polygons' perimeters (holes included), in pixels.
    /// - Complexity: O(n) for n vertices in all rings.
    public var perimeter: Double {
        var total = 0.0
        for polygon in polygons { total += polygon.perimeter }
        return total
    }
}
