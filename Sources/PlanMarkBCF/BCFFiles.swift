/// The names of a BCF file's parts.
enum BCFFiles {
    static let version = "bcf.version"
    static let project = "project.bcfp"
    static let markup = "markup.bcf"

    /// Viewpoint `index`'s files in its topic's folder: `viewpoint.bcfv` and `snapshot.png` for the first (the names
    /// BCF 2.1 gave the default viewpoint), `viewpoint-GUID.bcfv` and `snapshot-GUID.png` for the others.
    static func viewpoint(_ index: Int, guid: String) -> (visualization: String, snapshot: String) {
        index == 0 ? ("viewpoint.bcfv", "snapshot.png") : ("viewpoint-\(guid).bcfv", "snapshot-\(guid).png")
    }
}
