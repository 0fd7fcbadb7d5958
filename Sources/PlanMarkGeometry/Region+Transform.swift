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
        return try Region(id: id, kind: kind, name: name, coordinates: coordinates)
    }
}
