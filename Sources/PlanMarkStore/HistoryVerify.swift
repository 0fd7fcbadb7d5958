/// Checks the whole store's history chain (`HistoryChain`) in one snapshot: every entry, in id order, has the hash its
/// bytes and its predecessor's hash give, the head is the last entry's hash, and, with `kept` (a head an auditor kept),
/// the chain passes through `kept`. `planmark history verify`.
/// - Complexity: O(h) for h entries (and their text), read `StoreTables.history.pageRows` at a time; memory holds a page
///   and the drawings' names.
package func verifyHistory(_ reader: some StoreTableReader, through kept: String? = nil) async throws(StoreError) -> HistoryVerification {
    var names: [Int64: String] = [:]
    let drawingTable = StoreTables.all.first { $0.name == "drawing" }!
    try await forEachRow(of: drawingTable, reader) { row in
        if case .integer(let id) = row[0], case .text(let name) = row[1] { names[id] = name }
        return true
    }
    var previous = HistoryChain.genesis
    var verified = 0
    var broken: HistoryBreak? = nil
    var passedKept = kept == nil || kept == HistoryChain.genesis
    try await forEachRow(of: StoreTables.history, reader) { values in
        let row = historyRow(values)
        let expected = HistoryChain.hash(previous: previous, row.row)
        guard expected == row.row.hash else {
            let drawing = names[row.row.drawingID] ?? "#\(row.row.drawingID) (removed)"
            broken = HistoryBreak(entryID: row.id, drawing: drawing, number: row.row.number, verifiedBefore: verified,
                                  problem: "its hash is not SHA-256 of the previous entry's hash and its own bytes: this entry was "
                                    + "changed, or an entry before it was removed or moved")
            return false
        }
        previous = expected
        verified += 1
        if expected == kept { passedKept = true }
        return true
    }
    if let broken { return .broken(broken) }
    let head = try await reader.rows(of: StoreTables.historyHead, after: nil).first
    guard case .text(let headHash)? = head?[1], headHash == previous else {
        return .broken(HistoryBreak(entryID: nil, drawing: nil, number: nil, verifiedBefore: verified,
                                    problem: "the chain's head is not the last entry's hash: entries after it were removed, or the head was changed"))
    }
    guard passedKept else {
        return .broken(HistoryBreak(entryID: nil, drawing: nil, number: nil, verifiedBefore: verified,
                                    problem: "no entry has the hash \(kept ?? ""): the chain no longer passes through the head kept then"))
    }
    return .verified(entries: verified, head: previous)
}

/// Calls `body` with every row of `table`, in key order, a page at a time, until it returns false.
private func forEachRow(of table: StoreTable, _ reader: some StoreTableReader,
                        _ body: ([StoreValue]) -> Bool) async throws(StoreError) {
    var after: [StoreValue]? = nil
    while true {
        let rows = try await reader.rows(of: table, after: after)
        for row in rows where !body(row) { return }
        if rows.count < table.pageRows { return }
        after = table.keyIndexes.map { rows[rows.count - 1][$0] }
    }
}

/// A `StoreTables.history` row's id and stored values.
private func historyRow(_ values: [StoreValue]) -> (id: Int64, row: HistoryRow) {
    func integer(_ value: StoreValue) -> Int64? { if case .integer(let n) = value { n } else { nil } }
    func text(_ value: StoreValue) -> String? { if case .text(let s) = value { s } else { nil } }
    let row = HistoryRow(drawingID: integer(values[1]) ?? 0, number: Int(integer(values[2]) ?? 0), lastNumber: integer(values[3]).map { Int($0) },
                         action: text(values[4]) ?? "", at: integer(values[5]) ?? 0, author: text(values[6]), oldValue: text(values[7]),
                         newValue: text(values[8]), hash: text(values[9]) ?? "")
    return (integer(values[0]) ?? 0, row)
}
