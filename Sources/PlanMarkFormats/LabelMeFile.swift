import PlanMarkGeometry

/// A shape of a LabelMe file that is not a region (a circle, line, point, ...), left out on import.
public struct LabelMeSkippedShape: Hashable, Sendable, CustomStringConvertible {
    /// Its index in `shapes`.
    public var index: Int
    /// Its `shape_type`.
    public var shapeType: String
    /// Its `label`.
    public var label: String

    /// `shapes[3]: skipped circle "x"`.
    public var description: String { "shapes[\(index)]: skipped \(shapeType) " + JSONString.quoted(label) }
}

/// The regions of a LabelMe file, with the image size it was drawn on and the shapes left out.
public struct LabelMeRegions: Hashable, Sendable {
    /// The rooms and allowed areas, in the order of their first shape.
    public var regions: [Region]
    /// `imageWidth`.
    public var imageWidth: Int
    /// `imageHeight`.
    public var imageHeight: Int
    /// Shapes that are not polygons or rectangles, in file order.
    public var skipped: [LabelMeSkippedShape]
}

/// A point shape written to a LabelMe file (a marker, labelled with its number).
public struct LabelMePoint: Hashable, Sendable {
    /// The shape's label.
    public var label: String
    /// Where it is, in pixels.
    public var position: PixelPoint

    /// Creates a point shape.
    public init(label: String, position: PixelPoint) {
        self.label = label
        self.position = position
    }
}

/// Reads and writes LabelMe annotation files (https://github.com/wkentaro/labelme).
///
/// The layout is LabelMe's own, as `labelme/_label_file.py` writes it (`write_label_file` and
/// `_dump_shape_to_json_obj`, wkentaro/labelme at v7.1.0, commit 51e50e43): top-level `version`, `flags`,
/// `shapes`, `imagePath`, `imageData`, `imageHeight`, `imageWidth`; each shape `label`, `points`
/// (`[[x, y], ...]` in pixels of the image, origin top-left, y down, as PlanMark's), `group_id` (an integer
/// or null), `description`, `shape_type` (`polygon`, `rectangle`, `oriented_rectangle`, `point`, `line`,
/// `circle`, `linestrip`, `points`, `mask`), `flags` and `mask`.
///
/// Reading: a file is LabelMe when its top level has `shapes`, `imageWidth` and `imageHeight`. `polygon`
/// shapes (their points, not closed) and `rectangle` shapes (two opposite corners) become regions named by
/// their `label`: an allowed area when the label is `allowed` or starts with `allowed`, else a room.
/// Shapes with the same label and the same non-null `group_id` join into one multipolygon region (LabelMe's
/// way of marking one object drawn in pieces); every other shape is a region of its own. A region's id is
/// its label, or `label#k` (k = 1, 2, ... in file order) when several regions have that label. Other shape
/// types are left out and listed (`skipped`). LabelMe polygons have no holes; the polygons of one group
/// must lie apart, as any multipolygon's (checked by `Region`). A missing `shape_type` is `polygon`, as
/// older LabelMe versions read it.
public enum LabelMeFile {
    /// The `version` written: the LabelMe release whose layout this follows.
    public static let version = "7.1.0"

    /// True when `root` is a LabelMe file: an object with `shapes`, `imageWidth` and `imageHeight`.
    public static func isLabelMe(_ root: JSONValue) -> Bool {
        guard case .object = root else { return false }
        return root["shapes"] != nil && root["imageWidth"] != nil && root["imageHeight"] != nil
    }

    /// The regions of a parsed LabelMe file; `source` names it in errors (`FILE: $.shapes[2].points: ...`).
    /// - Complexity: O(n log n) for n vertices (the rings' checks dominate).
    public static func regions(from root: JSONValue, source: String) throws(FormatError) -> LabelMeRegions {
        func bad(_ path: String, _ message: String) -> FormatError {
            FormatError(.malformed, source: source, path: path, message: message)
        }
        func size(_ key: String) throws(FormatError) -> Int {
            guard case .number(let value)? = root[key], value == value.rounded(), value >= 1, value <= 1_000_000_000 else {
                throw bad("$." + key, "expected a positive whole number of pixels")
            }
            return Int(value)
        }
        let width = try size("imageWidth"), height = try size("imageHeight")
        guard case .array(let shapes)? = root["shapes"] else { throw bad("$.shapes", "expected an array of shapes") }

        // One entry per region: its label, kind and polygons (with the path of each shape, for errors).
        struct Pending { var label: String; var polygons: [Polygon]; var paths: [String] }
        var pending: [Pending] = []
        var groups: [String: [Int64: Int]] = [:]  // label -> group_id -> index in pending
        var skipped: [LabelMeSkippedShape] = []
        for (index, shape) in shapes.enumerated() {
            let path = "$.shapes[\(index)]"
            guard case .object = shape else { throw bad(path, "expected a shape object") }
            guard case .string(let label)? = shape["label"] else { throw bad(path + ".label", "expected a string") }
            let shapeType: String
            switch shape["shape_type"] {
            case nil, .null?: shapeType = "polygon"
            case .string(let text)?: shapeType = text
            case let other?: throw bad(path + ".shape_type", "expected a string, found \(other.typeName)")
            }
            guard shapeType == "polygon" || shapeType == "rectangle" else {
                skipped.append(LabelMeSkippedShape(index: index, shapeType: shapeType, label: label))
                continue
            }
            if label.isEmpty { throw bad(path + ".label", "expected a room's name or \"allowed\", found an empty label") }
            if let problem = TextCheck.idProblem(label) { throw FormatError(problem, source: source, path: path + ".label") }
            var groupID: Int64?
            switch shape["group_id"] {
            case nil, .null?: break
            case .number(let value)? where value == value.rounded() && abs(value) < 9_007_199_254_740_992: groupID = Int64(value)
            case let other?: throw bad(path + ".group_id", "expected an integer or null, found \(other.typeName)")
            }
            guard case .array(let pointValues)? = shape["points"] else { throw bad(path + ".points", "expected an array of [x, y] points") }
            var points: [PixelPoint] = []
            points.reserveCapacity(pointValues.count)
            for (k, value) in pointValues.enumerated() {
                guard case .array(let pair) = value, pair.count == 2, case .number(let x) = pair[0], case .number(let y) = pair[1] else {
                    throw bad(path + ".points[\(k)]", "expected a point [x, y]")
                }
                points.append(PixelPoint(x: x, y: y))
            }
            if shapeType == "rectangle" {
                guard points.count == 2 else { throw bad(path + ".points", "a rectangle has two corner points, found \(points.count)") }
                let a = points[0], b = points[1]
                points = [a, PixelPoint(x: b.x, y: a.y), b, PixelPoint(x: a.x, y: b.y)]
            }
            let target: Int
            if let groupID, let existing = groups[label]?[groupID] {
                target = existing
            } else {
                target = pending.count
                pending.append(Pending(label: label, polygons: [], paths: []))
                if let groupID { groups[label, default: [:]][groupID] = target }
            }
            let polygon: Polygon
            do {
                polygon = try Polygon(rings: [points], region: label, polygonIndex: pending[target].polygons.count)
            } catch {
                throw bad(path + ".points", error.description)
            }
            pending[target].polygons.append(polygon)
            pending[target].paths.append(path)
        }

        var labelCounts: [String: Int] = [:]
        for entry in pending { labelCounts[entry.label, default: 0] += 1 }
        var seenOfLabel: [String: Int] = [:]
        var ids: Set<String> = []
        var regions: [Region] = []
        regions.reserveCapacity(pending.count)
        for entry in pending {
            let id: String
            if labelCounts[entry.label] == 1 {
                id = entry.label
            } else {
                seenOfLabel[entry.label, default: 0] += 1
                id = entry.label + "#" + String(seenOfLabel[entry.label]!)
            }
            guard ids.insert(id).inserted else { throw bad(entry.paths[0] + ".label", "duplicate region id \"\(id)\"") }
            let kind: RegionKind = entry.label.hasPrefix("allowed") ? .allowed : .room
            do {
                regions.append(try Region(id: id, kind: kind, name: entry.label, polygons: entry.polygons))
            } catch {
                throw bad(entry.paths[0], error.description + " (the shapes with label " + JSONString.quoted(entry.label)
                          + " and this group_id: " + entry.paths.joined(separator: ", ") + ")")
            }
        }
        return LabelMeRegions(regions: regions, imageWidth: width, imageHeight: height, skipped: skipped)
    }

    /// What `document` could not write: a region's holes (LabelMe polygons have none).
    public struct Omission: Hashable, Sendable, CustomStringConvertible {
        /// The region's id.
        public var region: String
        /// How many holes were left out.
        public var holes: Int

        /// `region "R": 2 holes left out (LabelMe polygons have none)`.
        public var description: String {
            "region " + JSONString.quoted(region) + ": \(holes) hole\(holes == 1 ? "" : "s") left out (LabelMe polygons have none)"
        }
    }

    /// A LabelMe file of `regions` (each polygon's outer ring a `polygon` shape labelled with the region's
    /// name, or its id when it has none; an allowed area's label is prefixed `allowed ` unless it starts with
    /// `allowed` already; the polygons of a multipolygon share a `group_id`, 1, 2, ... in region order,
    /// others have null) followed by `points` as `point` shapes. `imageData` is null: LabelMe opens
    /// `imagePath` relative to the file. Returns the text (indented, ending with a line break) and the holes
    /// it had to leave out.
    /// - Complexity: O(n) for n vertices and points.
    public static func document(regions: [Region], points: [LabelMePoint] = [], imagePath: String,
                                imageWidth: Int, imageHeight: Int) -> (text: String, omissions: [Omission]) {
        var out = "{\n  \"version\": \"\(version)\",\n  \"flags\": {},\n  \"shapes\": ["
        var omissions: [Omission] = []
        var first = true
        func shape(label: String, points: [PixelPoint], groupID: Int?, type: String) {
            out += first ? "\n" : ",\n"
            first = false
            out += "    {\n      \"label\": " + JSONString.quoted(label) + ",\n      \"points\": ["
            for (k, point) in points.enumerated() {
                if k > 0 { out += ", " }
                out += "[" + JSONNumber.text(point.x) + ", " + JSONNumber.text(point.y) + "]"
            }
            out += "],\n      \"group_id\": " + (groupID.map { String($0) } ?? "null")
            out += ",\n      \"description\": \"\",\n      \"shape_type\": \"" + type + "\",\n      \"flags\": {},\n      \"mask\": null\n    }"
        }
        var nextGroup = 1
        for region in regions {
            var label = region.name ?? region.id
            if region.kind == .allowed && !label.hasPrefix("allowed") { label = "allowed " + label }
            var groupID: Int?
            if region.polygons.count > 1 {
                groupID = nextGroup
                nextGroup += 1
            }
            var holes = 0
            for polygon in region.polygons {
                shape(label: label, points: polygon.exterior.vertices, groupID: groupID, type: "polygon")
                holes += polygon.holes.count
            }
            if holes > 0 { omissions.append(Omission(region: region.id, holes: holes)) }
        }
        for point in points {
            shape(label: point.label, points: [point.position], groupID: nil, type: "point")
        }
        out += first ? "],\n" : "\n  ],\n"
        out += "  \"imagePath\": " + JSONString.quoted(imagePath) + ",\n  \"imageData\": null,\n"
        out += "  \"imageHeight\": \(imageHeight),\n  \"imageWidth\": \(imageWidth)\n}\n"
        return (out, omissions)
    }
}
