import GRDB
import PlanMarkGeometry
import PlanMarkStore

/// A region is a row of the `region` table.
extension RegionRecord: FetchableRecord, PersistableRecord {
    package static let databaseTableName = "region"

    package init(row: Row) throws {
        let kindText: String = try row.decode(forColumn: "kind")
        guard let kind = RegionKind(rawValue: kindText) else { throw StoreError.io("region has an unknown kind \"\(kindText)\"") }
        self.init(drawingID: try row.decode(forColumn: "drawingId"), position: try row.decode(forColumn: "position"),
                  regionID: try row.decode(forColumn: "regionId"), kind: kind, name: try row.decode(forColumn: "name"),
                  geometry: try row.decode(forColumn: "geometry"),
                  bounds: BoundingBox(minX: try row.decode(forColumn: "minX"), minY: try row.decode(forColumn: "minY"),
                                      maxX: try row.decode(forColumn: "maxX"), maxY: try row.decode(forColumn: "maxY")),
                  labelBox: try row.decode(forColumn: "labelBox"))
    }

    package func encode(to container: inout PersistenceContainer) throws {
        container["drawingId"] = drawingID
        container["position"] = position
        container["regionId"] = regionID
        container["kind"] = kind.rawValue
        container["name"] = name
        container["geometry"] = geometry
        container["minX"] = bounds.minX
        container["minY"] = bounds.minY
        container["maxX"] = bounds.maxX
        container["maxY"] = bounds.maxY
        container["labelBox"] = labelBox
    }
}
