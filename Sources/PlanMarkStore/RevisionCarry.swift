import PlanMarkGeometry

/// Carries a drawing's markers and regions through a revision's transform, refusing results that are not
/// finite: a transform fitted from sane control points can still send a far-away marker (or a region vertex)
/// past the largest double, and such a position must never be stored. Both back ends carry through here.
package enum RevisionCarry {
    /// `position` of marker `number` carried through `transform`; `invalidArgument` (a usage error: the
    /// transform, not the store, is at fault) when the result is not finite.
    /// - Complexity: O(1).
    package static func position(_ position: PixelPoint, marker number: Int, drawing: String,
                                 through transform: AffineMap) throws(StoreError) -> PixelPoint {
        guard let carried = transform.carried(position) else {
            throw .invalidArgument("--align: drawing \"\(drawing)\": marker \(number) at \(position) would be carried to a position that is not a finite number; nothing stored")
        }
        return carried
    }

    /// `region` carried through `transform`: `invalidArgument` when a vertex lands on a non-finite position,
    /// `refused` when the carried region is not valid (its rings cross, for example).
    /// - Complexity: O(v log v) for v vertices (the region's validation).
    package static func region(_ region: Region, drawing: String, through transform: AffineMap) throws(StoreError) -> Region {
        for polygon in region.polygons {
            for ring in [polygon.exterior] + polygon.holes where ring.vertices.contains(where: { transform.carried($0) == nil }) {
                throw .invalidArgument("--align: drawing \"\(drawing)\": region \(region.id) would be carried to positions that are not finite numbers; nothing stored")
            }
        }
        do {
            return try region.transformed(by: transform)
        } catch {
            throw .refused(.regionInvalidAfterTransform(drawing: drawing, region: region.id, problem: String(describing: error)))
        }
    }

    /// Where marker `number`, at `old` in the rooms `oldRooms` (stored JSON), goes on the new sheet: its carried
    /// position, its rooms there (JSON) and why it needs placing again (nil when `validator` takes it;
    /// `outside-rooms` when it had rooms and lands in none). `hits` is scratch space, reused from marker to marker.
    /// - Complexity: `MarkerValidator.validate`'s.
    package static func placement(of number: Int, at old: PixelPoint, rooms oldRooms: String, drawing: String,
                                  through transform: AffineMap, validator: MarkerValidator,
                                  hits: inout [RegionHit]) throws(StoreError) -> (position: PixelPoint, rooms: String, reason: String?) {
        let position = try self.position(old, marker: number, drawing: drawing, through: transform)
        var reason = validator.validate(position, hits: &hits)?.rawValue
        let rooms = RoomList.jsonText(StoreRules.rooms(hits, validator: validator))
        if reason == nil && rooms == "[]" && oldRooms != "[]" { reason = "outside-rooms" }
        return (position, rooms, reason)
    }
}

/// A revision's new sheet, checked before any transaction: the author's and the regions' text, the image (the bytes
/// given, or the file read), its size (a PNG's header, or the PDF page's size given with it: `StoreRules.imageSize`) and
/// its SHA-256.
package struct RevisionSheet: Sendable {
    /// The image, byte for byte: a PNG, or the PDF that `pdf` names a page of.
    package let bytes: [UInt8]
    /// Its width in pixels: from the PNG header, or the PDF page's as given.
    package let width: Int
    /// Its height in pixels: from the PNG header, or the PDF page's as given.
    package let height: Int
    /// Which page of a PDF at which resolution; nil for a PNG.
    package let pdf: PDFSource?
    /// Its SHA-256, hex.
    package let sha256: String

    /// - Complexity: O(image bytes + region count).
    package init(_ new: NewRevision, author: String?) throws(StoreError) {
        try TextField.check(author, field: "author")
        if let regions = new.regions { try StoreRules.checkText(of: regions) }
        try new.pdf?.validate()
        if let given = new.imageBytes { bytes = given } else { bytes = try StoreRules.readImage(path: new.imagePath) }
        (width, height) = try StoreRules.imageSize(of: bytes, path: new.imagePath, pdf: new.pdf)
        pdf = new.pdf?.source
        sha256 = SHA256.hexDigest(of: bytes)
    }

    /// The revision that follows `drawing`'s current one with this sheet (`new`'s path and alignment), and the
    /// validator of the new sheet's size with `regions`.
    /// - Complexity: O(v log v) for the regions' v vertices (the validator's index).
    package func revision(after drawing: Drawing, regions: [Region], _ new: NewRevision, at now: Timestamp,
                          author: String?) -> (Revision, MarkerValidator) {
        var target = drawing
        target.width = width
        target.height = height
        let revision = Revision(number: drawing.revision + 1, imagePath: StoreRules.absolutePath(new.imagePath), imageSHA256: sha256,
                                width: width, height: height, createdAt: now, author: author,
                                transform: new.alignment.transform, maxResidual: new.alignment.maxResidual, pdf: pdf)
        return (revision, StoreRules.validator(for: target, regions: regions))
    }
}
