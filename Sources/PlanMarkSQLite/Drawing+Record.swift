import PlanMarkStore
import GRDB
import PlanMarkFormats
import PlanMarkGeometry

/// A drawing is a row of the `drawing` table.
extension Drawing: FetchableRecord, MutablePersistableRecord {
    /// The table name.
    public static let databaseTableName = "drawing"

    /// Decodes a `drawing` row.
    public init(row: Row) throws {
        let crsText: String = try row.decode(forColumn: "crs")
        guard let crs = CRSFlavour(rawValue: crsText) else {
            throw StoreError.io("drawing has an unknown CRS flavour \"\(crsText)\"")
        }
        self.init(
            id: try row.decode(forColumn: "id"),
            name: try row.decode(forColumn: "name"),
            imagePath: try row.decode(forColumn: "imagePath"),
            imageSHA256: try row.decode(forColumn: "imageSHA256"),
            width: try row.decode(forColumn: "width"),
            height: try row.decode(forColumn: "height"),
            zoom: Zoom(try row.decode(Double.self, forColumn: "zoom")),
            crs: crs,
            singleMarker: try row.decode(forColumn: "singleMarker"),
            nextNumber: try row.decode(forColumn: "nextNumber"),
            regionsRevision: try row.decode(forColumn: "regionsRevision"),
            createdAt: Timestamp(milliseconds: try row.decode(forColumn: "createdAt")),
            uuidSeed: try row.decode(forColumn: "uuidSeed")
        )
        // The scale (v8-calibration): both columns, or neither. The scale is derived again from the calibration
        // kept as given, so a drawing calibrated before the exact derivation reads 0.01 m, not 0.009999999999999998.
        if let scale: Double = row["metresPerPixel"], let text: String = row["calibration"], let calibration = CalibrationJSON.parse(text) {
            metresPerPixel = calibration.metresPerPixel ?? scale
            self.calibration = calibration
        }
        if let revision: Int = row["revision"] { self.revision = revision }
        if let projectID: Int64 = row["projectId"] { self.projectID = projectID }
        // A page of a PDF (v16-pdf-page): both columns, or neither (a PNG).
        if let page: Int = row["pdfPage"], let dpi: Int = row["pdfDPI"] { pdf = PDFSource(page: page, dpi: dpi) }
    }

    /// Encodes the drawing's columns.
    public func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["imagePath"] = imagePath
        container["imageSHA256"] = imageSHA256
        container["width"] = width
        container["height"] = height
        container["zoom"] = zoom.value
        container["crs"] = crs.rawValue
        container["singleMarker"] = singleMarker
        container["nextNumber"] = nextNumber
        container["regionsRevision"] = regionsRevision
        container["createdAt"] = createdAt.milliseconds
        container["uuidSeed"] = uuidSeed
        container["metresPerPixel"] = metresPerPixel
        container["calibration"] = calibration.map(CalibrationJSON.object)
        container["revision"] = revision
        container["projectId"] = projectID
        container["pdfPage"] = pdf?.page
        container["pdfDPI"] = pdf?.dpi
    }

    /// Takes the id SQLite gave the new row.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
