import PlanMarkFormats

/// Comments (`Comment`): history entries of the action `commented`, written and read once for every back end.
extension StoreBackend {
    /// Adds a comment to marker `number`'s thread: one `commented` history entry. Refused (`invalidText`) when the text
    /// is empty or blank, longer than `Comment.maxLength` characters, or cannot be stored exactly.
    /// - Complexity: O(log h + text length).
    public func comment(_ text: String, onMarker number: Int, in name: String, author: String?) async throws(StoreError) -> Comment {
        try StoreRules.comment(text, author: author)
        return try await write(drawing: name) { transaction, locked in
            guard let drawing = locked, let drawingID = drawing.id else { throw StoreError.unknownDrawing(name) }
            let marker = try await Self.countChange(transaction, try await Self.marker(transaction, number, of: drawing))
            let at = Timestamp.now()
            var new = MarkerState()
            new.comment = text
            let id = try await Self.record(transaction, marker, .commented, at: at, author: author, old: nil, new: new)
            return Comment(id: id, drawingID: drawingID, number: number, author: author, createdAt: at, text: text)
        }
    }

    /// Marker `number`'s comments, oldest first; `unknownMarker` when the drawing has no such marker (a removed marker's
    /// thread stays in the history).
    /// - Complexity: O(log h + e) for the marker's e history entries.
    public func comments(ofMarker number: Int, in name: String) async throws(StoreError) -> [Comment] {
        let marker = try await marker(number, in: name)
        return try await rows(of: StoreTables.history, where: [("drawingId", .integer(marker.drawingID)), ("number", .integer(Int64(number))),
                                                                ("action", .text(HistoryAction.commented.rawValue))])
            .compactMap(Self.comment)
    }

    /// Every comment on the drawing's markers, oldest first, by marker number.
    /// - Complexity: O(log h + e) for the drawing's e history entries.
    public func comments(in name: String) async throws(StoreError) -> [Int: [Comment]] {
        let drawing = try await drawingRecord(named: name)
        var threads: [Int: [Comment]] = [:]
        for row in try await rows(of: StoreTables.history, where: [("drawingId", .integer(drawing.id!)),
                                                                    ("action", .text(HistoryAction.commented.rawValue))]) {
            if let comment = Self.comment(row) { threads[comment.number, default: []].append(comment) }
        }
        return threads
    }

    /// The comment a `history` row (`StoreTables.history`'s columns) records; nil for a row that is not a comment.
    static func comment(_ row: [StoreValue]) -> Comment? {
        guard case .integer(let id) = row[0], case .integer(let drawingID) = row[1], case .integer(let number) = row[2],
              case .integer(let at) = row[5], case .text(let newValue) = row[8],
              let text = MarkerState(jsonText: newValue)?.comment else { return nil }
        let author: String? = if case .text(let name) = row[6] { name } else { nil }
        return Comment(id: id, drawingID: drawingID, number: Int(number), author: author, createdAt: Timestamp(milliseconds: at), text: text)
    }

    /// The history chain's head (`HistoryChain`): the hash an auditor keeps (`planmark history head`).
    /// - Complexity: O(1).
    public func historyHead() async throws(StoreError) -> String {
        guard case .text(let hash)? = try await rows(of: StoreTables.historyHead, where: []).first?[1] else {
            throw .io("the store has no history head (historyHead table)")
        }
        return hash
    }
}
