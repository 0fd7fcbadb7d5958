import PlanMarkFormats

extension StoreRules {
    /// Refuses an imported row's text that cannot be stored exactly, an unknown status or priority, and a
    /// category over 100 characters; the field is named with the row's line (or id).
    package static func checkImported(_ row: MarkerRow) throws(StoreError) {
        // The usual row (a plain position file): nothing to check, and no field name made.
        if row.note == nil && row.author == nil && row.hasOnlyPosition && row.ref == nil { return }
        let at = row.line > 0 ? "line \(row.line): " : "marker \(row.id): "
        try TextField.check(row.note, field: at + "note")
        try TextField.check(row.author, field: at + "author")
        if row.hasOnlyPosition && row.ref == nil { return }
        try TextField.check(row.ref, field: at + "id")
        try TextField.check(row.assignee, field: at + "assignee")
        try TextField.check(row.category, field: at + "category")
        if let status = row.status, MarkerStatus(text: status) == nil {
            throw .invalidText(field: at + "status", problem: "\"\(status)\" is not one of \(MarkerStatus.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let priority = row.priority, MarkerPriority(rawValue: priority) == nil {
            throw .invalidText(field: at + "priority", problem: "\"\(priority)\" is not one of \(MarkerPriority.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let category = row.category, category.count > Marker.maxCategoryLength {
            throw .invalidText(field: at + "category", problem: "is \(category.count) characters long; at most \(Marker.maxCategoryLength)")
        }
    }
}
