import PlanMarkGeometry

/// One marker as read from a markers file.
///
/// Besides the position, a row may carry a punch item's fields (a PlanMark export carries all of them,
/// so it can be imported into another store without loss). `status` and `priority` are kept as written;
/// the store checks them against its vocabulary.
///
/// The punch-item fields live in one shared box, present only when a row has any: rows of a plain position
/// file (a million of them in one import) stay at their old size, 80 bytes, instead of 220.
public struct MarkerRow: Hashable, Sendable {
    /// The marker's id: the `id` column or feature id, else its 1-based data row number.
    public var id: String
    /// The id as the file gave it (`id` column, feature id or `properties.id`); nil when the file gave none.
    /// A store keeps it as the marker's `ref`.
    public var ref: String?
    /// The 1-based line of the row in a CSV file; 0 when unknown (GeoJSON).
    public var line: Int
    /// The position in pixels, or nil when a coordinate did not parse or is not finite.
    public var position: PixelPoint?
    /// An optional note (CSV `note` column or GeoJSON `properties.note`).
    public var note: String?
    /// An optional author (CSV `author` column or GeoJSON `properties.author`).
    public var author: String?
    /// The punch-item fields; nil when the row has none.
    private var item: PunchItemBox?

    /// Creates a row.
    public init(id: String, line: Int, position: PixelPoint?, note: String? = nil, author: String? = nil, ref: String? = nil,
                uuid: MarkerUUID? = nil, status: String? = nil, category: String? = nil, priority: String? = nil,
                assignee: String? = nil, due: DueDate? = nil, capturedAt: CaptureTime? = nil) {
        self.id = id
        self.ref = ref
        self.line = line
        self.position = position
        self.note = note
        self.author = author
        let values = PunchItemValues(uuid: uuid, status: status, category: category, priority: priority, assignee: assignee, due: due,
                                     capturedAt: capturedAt)
        item = values.isEmpty ? nil : PunchItemBox(values)
    }

    /// The client's identifier of the item (`uuid`), when given.
    public var uuid: MarkerUUID? {
        get { item?.values.uuid }
        set { update { $0.uuid = newValue } }
    }
    /// The status as written (`open`, `in-progress`, `ready`, `closed`, `void`), when given.
    public var status: String? {
        get { item?.values.status }
        set { update { $0.status = newValue } }
    }
    /// The category, when given.
    public var category: String? {
        get { item?.values.category }
        set { update { $0.category = newValue } }
    }
    /// The priority as written (`low`, `normal`, `high`, `critical`), when given.
    public var priority: String? {
        get { item?.values.priority }
        set { update { $0.priority = newValue } }
    }
    /// Who the item is assigned to, when given.
    public var assignee: String? {
        get { item?.values.assignee }
        set { update { $0.assignee = newValue } }
    }
    /// The due date, when given.
    public var due: DueDate? {
        get { item?.values.due }
        set { update { $0.due = newValue } }
    }
    /// When the client captured the item, when given.
    public var capturedAt: CaptureTime? {
        get { item?.values.capturedAt }
        set { update { $0.capturedAt = newValue } }
    }

    /// True when the row carries no punch-item field besides note and author (a plain position file).
    public var hasOnlyPosition: Bool { item == nil }

    /// Changes the boxed fields, copying the box when another row shares it.
    private mutating func update(_ change: (inout PunchItemValues) -> Void) {
        var values = item?.values ?? PunchItemValues()
        change(&values)
        item = values.isEmpty ? nil : PunchItemBox(values)
    }

    public static func == (a: MarkerRow, b: MarkerRow) -> Bool {
        a.id == b.id && a.ref == b.ref && a.line == b.line && a.position == b.position && a.note == b.note && a.author == b.author
            && a.item?.values == b.item?.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(line)
        hasher.combine(item?.values)
    }
}

/// The punch-item fields of a markers file's row.
struct PunchItemValues: Hashable, Sendable {
    var uuid: MarkerUUID?
    var status: String?
    var category: String?
    var priority: String?
    var assignee: String?
    var due: DueDate?
    var capturedAt: CaptureTime?

    var isEmpty: Bool {
        uuid == nil && status == nil && category == nil && priority == nil && assignee == nil && due == nil && capturedAt == nil
    }
}

/// An immutable box (rows share it; a change makes a new one).
final class PunchItemBox: Sendable {
    let values: PunchItemValues
    init(_ values: PunchItemValues) { self.values = values }
}

/// The format of a markers file.
public enum MarkerFileFormat: String, CaseIterable, Sendable {
    /// CSV with a header naming `x,y` or `lat,lng`, optionally `id`, `note`, `author`.
    case csv
    /// A GeoJSON FeatureCollection of `Point` features in pixel coordinates.
    case geojson

    /// The format a file name implies: `.csv`/`.txt` CSV, `.geojson`/`.json` GeoJSON; nil otherwise.
    public static func inferred(fromPath path: String) -> MarkerFileFormat? {
        let lower = path.lowercased()
        if lower.hasSuffix(".csv") || lower.hasSuffix(".txt") { return .csv }
        if lower.hasSuffix(".geojson") || lower.hasSuffix(".json") { return .geojson }
        return nil
    }
}

/// How to turn latLng rows into pixels: the client's CRS flavour and zoom.
public struct LatLngConversion: Hashable, Sendable {
    /// The CRS flavour.
    public var crs: SimpleCRS
    /// The zoom the latLng values were taken at.
    public var zoom: Zoom

    /// The scale at `zoom`, computed once (a fractional-zoom `pow` costs more than the conversion).
    @usableFromInline let scale: Double

    /// Creates a conversion.
    public init(crs: SimpleCRS, zoom: Zoom) {
        self.crs = crs
        self.zoom = zoom
        scale = crs.transformationScale(at: zoom)
    }

    /// The pixel position of `latLng`: the same arithmetic as `crs.pixel(from:at:)`.
    @inlinable
    public func pixel(_ latLng: LatLng) -> PixelPoint {
        let projected = crs.projection.project(latLng)
        return crs.transformation.transform(x: projected.x, y: projected.y, scale: scale)
    }
}
