/// The BCF-XML versions PlanMark writes and reads (buildingSMART's BIM Collaboration Format). 2.1 is what most tools
/// import (Procore's Coordination Issues only 2.1); 3.0 moved the comments and viewpoints into the topic, wrapped the
/// lists (`Labels`, `DocumentReferences`) and points a document reference at a URL or a document of the file.
public enum BCFVersion: String, CaseIterable, Hashable, Sendable {
    case v2_1 = "2.1"
    case v3_0 = "3.0"

    /// The version `text` names (`2.1`, `3.0`; `2.0`, which 2.1 reads unchanged, is 2.1).
    public init?(text: String) {
        if text == "2.0" { self = .v2_1; return }
        self.init(rawValue: text)
    }
}
