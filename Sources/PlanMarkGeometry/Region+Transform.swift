extension Region {
    /// The region with every vertex of every ring carried through `transform`, checked again as a new
    /// region would be (rounding can, in rare cases, make rings meet that did not before). Ring orientation
    /// needs no fixing for a mirroring transform: regions accept either orientation.
    /// - Complexity: O(n log n) for n vertices (the checks of `Region.init`).
    public func transformed(by transform: AffineMap) throws(GeometryError) -> Region {
        if transform.isIdentity { return self }
        let coordinates = polygons.map { polygon in
            ([polygon.exterior] + polygon.holes).map { ring in ring.vertices.map(transform.apply) }
        }
        // The label moves with the drawing: the box holding its four corners carried through.
        let label = labelBox.map { box in
            BoundingBox([PixelPoint(x: box.minX, y: box.minY), PixelPoint(x: box.maxX, y: box.minY),
                         PixelPoint(x: box.minX, y: box.maxY), PixelPoint(x: box.maxX, y: box.maxY)].map(transform.apply))
        }
        return try Region(id: id, kind: kind, name: name, coordinates: coordinates, labelBox: label)
    }
}
