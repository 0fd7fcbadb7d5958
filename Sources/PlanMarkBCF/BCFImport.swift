import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// A BCF file's topics as items to store on one drawing (`planmark import NAME FILE.bcf`).
///
/// A topic PlanMark wrote (it carries a `BCFPlacement`) comes back at its pixel position with its fields and comments
/// (the thread's status changes become the status, not comments). A topic another tool made has no position: it is
/// placed at the sheet's centre and flagged `needsPlacement` = `no-position`, its title and description in the note,
/// its creation date as the time of capture (`capturedAt`, when the date has an offset), its comments as comments. Authors and assignees written as e-mail addresses are the store's users of those
/// addresses, else the names the placement recorded, else the addresses.
public enum BCFImport {
    /// Why a marker needs placing when its topic came without a position.
    public static let noPosition = "no-position"

    /// The items of `file`'s topics, in the order of their `Index` (topics without one after, in the file's order).
    /// - Complexity: O(t log t + c) for t topics and c comments.
    public static func items(of file: BCFArchive, drawing: Drawing, users: [User]) throws(BCFError) -> [ImportedItem] {
        let people = People(users)
        let ordered = file.topics.enumerated().sorted { a, b in
            switch (a.element.index, b.element.index) {
            case let (x?, y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a.offset < b.offset
            }
        }.map(\.element)
        var items: [ImportedItem] = []
        items.reserveCapacity(ordered.count)
        for topic in ordered { items.append(try item(topic, drawing: drawing, people: people)) }
        return items
    }

    /// One topic as an item.
    static func item(_ topic: BCFTopic, drawing: Drawing, people: People) throws(BCFError) -> ImportedItem {
        guard let uuid = MarkerUUID(text: topic.guid) else { throw .invalidTopic(guid: topic.guid, detail: "its Guid is not a UUID") }
        let placement = topic.placement
        func person(_ text: String?) -> String? {
            guard let text, !text.isEmpty, text != BCFPeople.unknown else { return nil }
            return people.name[text.lowercased()] ?? placement?.people[text] ?? text
        }
        var marker = NewMarker(position: PixelPoint(x: Double(drawing.size.width) / 2, y: Double(drawing.size.height) / 2), uuid: uuid)
        var needsPlacement: String? = noPosition
        if let placement {
            marker.position = PixelPoint(x: placement.x, y: placement.y)
            needsPlacement = nil
            marker.ref = placement.ref
            marker.capturedAt = placement.capturedAt.flatMap(CaptureTime.init(text:))
            marker.note = topic.description
        } else {
            let parts = [topic.title, topic.description].compactMap { $0?.isEmpty == false ? $0 : nil }
            marker.note = parts.isEmpty ? nil : parts.joined(separator: "\n\n")
            // When the other tool made it, kept as the time of capture (when its date carries an offset, as RFC 3339 asks).
            marker.capturedAt = CaptureTime(text: topic.creationDate)
        }
        marker.status = status(topic.status)
        marker.priority = priority(topic.priority)
        if let type = topic.type, !type.isEmpty, !(placement?.untyped == true && type == "Issue") {
            marker.category = String(type.prefix(Marker.maxCategoryLength))
        }
        marker.assignee = person(topic.assignedTo)
        marker.due = topic.dueDate.flatMap { DueDate(text: String($0.prefix(10))) }
        let skipped = Set(placement?.statusComments ?? [])
        let comments = topic.comments.compactMap { comment -> ImportedComment? in
            guard !skipped.contains(comment.guid), comment.text.contains(where: { !$0.isWhitespace }) else { return nil }
            return ImportedComment(author: person(comment.author), text: comment.text)
        }
        return ImportedItem(marker: marker, author: person(topic.creationAuthor), needsPlacement: needsPlacement, comments: comments)
    }

    /// PlanMark's status of a BCF status: PlanMark's own words, else the common words of other tools (`Active`, `New`,
    /// `In Progress`, `Resolved`, `Done`, `Closed`), else open.
    static func status(_ text: String?) -> MarkerStatus {
        guard let text else { return .open }
        let word = text.lowercased().replacingOccurrences(of: " ", with: "-").replacingOccurrences(of: "_", with: "-")
        if let status = MarkerStatus(text: word) { return status }
        switch word {
        case "inprogress", "in-work", "assigned": return .inProgress
        case "done", "fixed", "completed": return .closed
        case "ready-for-inspection", "ready-for-review", "review": return .ready
        case "rejected", "invalid", "duplicate", "cancelled", "canceled": return .void
        default: return .open
        }
    }

    /// PlanMark's priority of a BCF priority: PlanMark's own words, else `Major` as high, `Minor` and `Medium` as low
    /// and normal, else normal.
    static func priority(_ text: String?) -> MarkerPriority {
        guard let text else { return .normal }
        let word = text.lowercased()
        if let priority = MarkerPriority(rawValue: word) { return priority }
        switch word {
        case "major", "urgent", "blocker": return .high
        case "minor", "trivial", "on hold": return .low
        default: return .normal
        }
    }
}
