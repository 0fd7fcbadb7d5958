/// The fields of a punch item that markers files may carry besides id, position, note and author, by
/// their column (CSV) or property (GeoJSON) name.
public enum PunchItemField: String, Hashable, Sendable, CaseIterable {
    case uuid, status, category, priority, assignee, due, capturedAt
}
