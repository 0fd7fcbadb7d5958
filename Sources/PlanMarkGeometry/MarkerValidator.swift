/// Why a marker was refused. The checks run in this order and the first failing one is reported.
public enum InvalidReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// A coordinate did not parse or is not finite.
    case invalidCoordinate = "invalid-coordinate"
    /// Off the drawing: outside `0...width` x `0...height`.
    case outsideDrawing = "outside-drawing"
    /// The drawing has allowed areas and none covers the marker.
    case outsideAllowedArea = "outside-allowed-area"
    /// No room covers the marker (checked only when a room is required).
    case outsideRooms = "outside-rooms"
}

/// A region that covers a marker, and how.
public struct RegionHit: Hashable, Sendable {
    /// Index of the region in the validator's region list.
    public var regionIndex: Int
    /// `inside` or `boundary`.
    public var location: PointLocation

    /// Creates a hit.
    public init(regionIndex: Int, location: PointLocation) {
        self.regionIndex = regionIndex
        self.location = location
    }
}

/// The outcome of validating one marker.
public struct MarkerVerdict: Hashable, Sendable {
    /// Why the marker is invalid, or nil when it is valid.
    public var reason: InvalidReason?
    /// Every region that covers the marker under the boundary rule, in region order.
    public var hits: [RegionHit]

    /// True when no check failed.
    public var isValid: Bool { reason == nil }
}

/// Validates markers against a drawing's size, its allowed areas and its rooms.
///
/// Checks, in order: finite coordinates; on the drawing (edges included); inside an allowed area when
/// there is any; inside a room when `requireRoom`. Every covering region is reported, so a marker on a
/// wall shared by two rooms lists both.
public struct MarkerValidator: Sendable {
    /// The regions, indexed.
    public let index: RegionIndex
    /// The drawing's size, if known.
    public let size: DrawingSize?
    /// Whether a marker on a wall is covered.
    public let boundary: BoundaryRule
    /// Whether a marker must lie in a room.
    public let requireRoom: Bool
    /// True when at least one region is an allowed area.
    public let hasAllowedAreas: Bool
    /// Whether each region is an allowed area, by region index.
    @usableFromInline let isAllowed: [Bool]

    /// Creates a validator; building the region index is the main cost.
    /// - Complexity: O(n log n) time and O(n) memory for n vertices in all regions, whatever their shape.
    public init(regions: [Region], size: DrawingSize? = nil, boundary: BoundaryRule = .include, requireRoom: Bool = false) {
        index = RegionIndex(regions)
        self.size = size
        self.boundary = boundary
        self.requireRoom = requireRoom
        isAllowed = regions.map { $0.kind == .allowed }
        hasAllowedAreas = isAllowed.contains(true)
    }

    /// The regions, in the order given.
    public var regions: [Region] { index.regions }

    /// Validates one marker, writing the covering regions into `hits` (cleared first) so that a batch
    /// can reuse one buffer.
    /// - Complexity: O(k * (log m + e)) for k regions near the point, m edges in each and e edges whose y-range holds the point's y.
    @inlinable
    public func validate(_ point: PixelPoint, hits: inout [RegionHit]) -> InvalidReason? {
        hits.removeAll(keepingCapacity: true)
        guard point.isFinite else { return .invalidCoordinate }
        var inAllowed = false
        var inRoom = false
        let rule = boundary
        index.forEachRegion(containing: point) { regionIndex, location in
            guard rule.covers(location) else { return }
            hits.append(RegionHit(regionIndex: regionIndex, location: location))
            if isAllowed[regionIndex] { inAllowed = true } else { inRoom = true }
        }
        if let size, !size.contains(point) { return .outsideDrawing }
        if hasAllowedAreas && !inAllowed { return .outsideAllowedArea }
        if requireRoom && !inRoom { return .outsideRooms }
        return nil
    }

    /// Validates one marker, writing the covering regions at `hits` (room for one a region) and their
    /// number in `count`: the same verdict and hits as `validate(_:hits:)`, without an array.
    /// - Complexity: as `validate(_:hits:)`.
    @inlinable
    public func validate(_ point: PixelPoint, hits: UnsafeMutablePointer<RegionHit>, count: inout Int) -> InvalidReason? {
        count = 0
        guard point.isFinite else { return .invalidCoordinate }
        var inAllowed = false
        var inRoom = false
        var n = 0
        let rule = boundary
        isAllowed.withUnsafeBufferPointer { isAllowed in
            index.forEachRegion(containing: point) { regionIndex, location in
                guard rule.covers(location) else { return }
                hits[n] = RegionHit(regionIndex: regionIndex, location: location)
                n += 1
                if isAllowed[regionIndex] { inAllowed = true } else { inRoom = true }
            }
        }
        count = n
        if let size, !size.contains(point) { return .outsideDrawing }
        if hasAllowedAreas && !inAllowed { return .outsideAllowedArea }
        if requireRoom && !inRoom { return .outsideRooms }
        return nil
    }

    /// Validates one marker.
    /// - Complexity: as `validate(_:hits:)`.
    public func validate(_ point: PixelPoint) -> MarkerVerdict {
        var hits: [RegionHit] = []
        let reason = validate(point, hits: &hits)
        return MarkerVerdict(reason: reason, hits: hits)
    }
}
