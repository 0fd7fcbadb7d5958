import PlanMarkExport
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

/// How the report's marker blocks are grouped.
public enum ReportGrouping: String, CaseIterable, Sendable {
    /// By the first room that covers the marker (markers in no room last).
    case room
    /// By assignee, alphabetically (unassigned last).
    case assignee
    /// By status, in workflow order (open, in progress, ready, closed, void).
    case status
}

/// The page size of the PDF report.
public enum ReportPaper: String, CaseIterable, Sendable {
    /// ISO A4, 210 x 297 mm.
    case a4
    /// US Letter, 8.5 x 11 in.
    case letter

    /// Width and height in PDF points (1/72 in).
    public var points: (width: Double, height: Double) {
        switch self {
        case .a4: return (595.2756, 841.8898)
        case .letter: return (612, 792)
        }
    }
}

/// Someone who signs the report off: a line with their name and role, and lines for the date and signature.
public struct ReportSignatory: Hashable, Sendable {
    /// The name, as printed.
    public var name: String
    /// The role (`Site manager`), nil when not given.
    public var role: String?

    /// Creates a signatory.
    public init(name: String, role: String? = nil) {
        self.name = name
        self.role = role
    }

    /// `Name, Role` (the role is what follows the first comma; both trimmed), or `Name`; nil when the name is empty.
    /// - Complexity: O(length).
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
        let name = Self.trimmed(parts[0])
        guard !name.isEmpty else { return nil }
        let role = parts.count > 1 ? Self.trimmed(parts[1]) : ""
        self.init(name: name, role: role.isEmpty ? nil : role)
    }

    /// `text` without the white space at either end.
    static func trimmed(_ text: Substring) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

/// What the report is of and how it is laid out: the inputs the front doors fill in.
public struct ReportOptions: Sendable {
    /// The markers listed (the same filters as `planmark markers` and `GET .../markers`).
    public var filter: MarkerFilter
    /// Group the marker blocks; nil lists them by number.
    public var grouping: ReportGrouping?
    /// Page size (PDF only).
    public var paper: ReportPaper
    /// The drawing's current revision number, shown on page 1 (`load` sets it from `Drawing.revision`).
    public var revision: Int = 1
    /// Room areas in m² to list on page 1 and in the sheet's legend; empty when the drawing has no scale
    /// (absent, not zero). `load` sets them from the drawing's scale and rooms (`RoomAreas.of`).
    public var roomAreas: [ReviewRoomArea] = []
    /// The title on page 1.
    public var title: String
    /// The date the report is made, as printed (`YYYY-MM-DD`); also the day that decides what is overdue.
    public var today: DueDate
    /// How many of each marker's last history entries are listed.
    public var historyLimit: Int
    /// How many of each marker's last comments are listed.
    public var commentLimit: Int
    /// Who signs the report off, in order: a sign-off block ends the report when there is anyone.
    public var signOff: [ReportSignatory] = []

    /// Options with the defaults: every marker, by number, A4, the last 3 history entries and the last 3 comments.
    public init(filter: MarkerFilter = MarkerFilter(), grouping: ReportGrouping? = nil, paper: ReportPaper = .a4,
                title: String = "Punch list", today: DueDate? = nil, historyLimit: Int = 3, commentLimit: Int = 3) {
        self.filter = filter
        self.grouping = grouping
        self.paper = paper
        self.title = title
        self.today = today ?? filter.today
        self.historyLimit = historyLimit
        self.commentLimit = commentLimit
    }
}

/// One marker's block in the report: its fields, its photos (described, bytes read when drawn) and its last
/// history entries as lines.
public struct ReportItem: Sendable {
    /// The stored marker.
    public var marker: Marker
    /// Past due and still active on the report's date.
    public var overdue: Bool
    /// Its attachments, oldest first (JPEG and PNG are shown; PDFs are listed by caption).
    public var attachments: [Attachment]
    /// Its last history entries, oldest first, as one line each (`2026-03-01 10:12 moved by ann`).
    public var history: [String]
    /// Its last comments, oldest first, as one line each (`2026-03-01 10:12 ann: the text`, line breaks as spaces).
    public var comments: [String] = []
}

/// A group of marker blocks under a heading.
public struct ReportGroup: Sendable {
    /// The heading (`Room 2.05`, `Assignee: ann`, `Status: Open`); empty when the report is not grouped.
    public var heading: String
    /// The markers in it, by number.
    public var items: [ReportItem]
}

/// The punch-list report of one drawing, as read from the store: everything but the images' pixels and the
/// photos' bytes, which the writers read one at a time (`ReportResources`).
public struct PunchListReport: Sendable {
    /// The drawing.
    public var drawing: Drawing
    /// Its regions (drawn on the sheet and the crops).
    public var regions: [Region]
    /// The options it was made with.
    public var options: ReportOptions
    /// The marker blocks, grouped (one group with an empty heading when not grouped).
    public var groups: [ReportGroup]
    /// Counts of the listed markers by status, in workflow order (statuses with none included, as 0).
    public var counts: [(status: MarkerStatus, count: Int)]

    /// Every listed marker, by number (each once, even when grouping lists it under several headings).
    public var markers: [Marker] {
        var seen = Set<Int>()
        var out: [Marker] = []
        for group in groups { for item in group.items where seen.insert(item.marker.number).inserted { out.append(item.marker) } }
        return out.sorted { $0.number < $1.number }
    }

    /// The filters line (`status=open,ready; room=2.05`), or `none`.
    public var filtersText: String { options.filter.summary ?? "none (every marker)" }

    /// Reads the drawing, its regions, the markers `options.filter` takes, their attachments (without bytes) and
    /// their last history entries, and groups them.
    /// - Complexity: O(m log m) for m markers, plus one attachments query and one history query per marker, and one
    ///   query for the drawing's comments.
    public static func load(from store: any AnnotationStore, drawing name: String, options: ReportOptions) async throws(StoreError) -> PunchListReport {
        let drawing = try await store.drawing(named: name).drawing
        let regions = try await store.regions(of: drawing.name)
        var options = options
        options.revision = drawing.revision
        options.roomAreas = RoomAreas.of(regions, drawing: drawing)
        var markers: [Marker] = []
        try await store.forEachMarker(in: drawing.name, filter: options.filter) { markers.append($0); return true }
        let threads = options.commentLimit > 0 ? try await store.comments(in: drawing.name) : [:]
        var items: [ReportItem] = []
        items.reserveCapacity(markers.count)
        for marker in markers {
            let attachments = try await store.attachments(ofMarker: marker.number, in: drawing.name)
            var history: [String] = []
            if options.historyLimit > 0 {
                let entries = try await store.history(of: drawing.name, number: marker.number)
                history = entries.suffix(options.historyLimit).map(Self.historyLine)
            }
            var item = ReportItem(marker: marker, overdue: marker.isOverdue(today: options.today), attachments: attachments, history: history)
            item.comments = (threads[marker.number] ?? []).suffix(options.commentLimit).map(Self.commentLine)
            items.append(item)
        }
        var counts: [MarkerStatus: Int] = [:]
        for marker in markers { counts[marker.status, default: 0] += 1 }
        let roomNames = Dictionary(regions.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        return PunchListReport(
            drawing: drawing, regions: regions, options: options,
            groups: group(items, by: options.grouping, roomNames: roomNames),
            counts: MarkerStatus.allCases.map { ($0, counts[$0] ?? 0) })
    }

    /// `items` (by number) in groups: by the marker's first room (no room last), assignee (case-insensitive,
    /// unassigned last) or status (workflow order); one unnamed group when `grouping` is nil.
    /// - Complexity: O(m log m).
    static func group(_ items: [ReportItem], by grouping: ReportGrouping?, roomNames: [String: String?]) -> [ReportGroup] {
        let items = items.sorted { $0.marker.number < $1.marker.number }
        guard let grouping else { return [ReportGroup(heading: "", items: items)] }
        // Key: (sort rank, sort text, heading).
        func key(_ item: ReportItem) -> (Int, String, String) {
            let marker = item.marker
            switch grouping {
            case .room:
                guard let room = marker.rooms.first else { return (1, "", "No room") }
                let name = roomNames[room] ?? nil
                return (0, room, "Room " + room + (name.map { $0 == room ? "" : " – \($0)" } ?? ""))
            case .assignee:
                guard let assignee = marker.assignee, !assignee.isEmpty else { return (1, "", "Unassigned") }
                return (0, assignee.lowercased(), "Assignee: " + assignee)
            case .status:
                let rank = MarkerStatus.allCases.firstIndex(of: marker.status) ?? 0
                return (rank, "", "Status: " + marker.status.title)
            }
        }
        var order: [(Int, String)] = []
        var byKey: [String: (heading: String, items: [ReportItem])] = [:]
        for item in items {
            let (rank, text, heading) = key(item)
            let id = "\(rank)\u{1}\(text)"
            if byKey[id] == nil {
                order.append((rank, text))
                byKey[id] = (heading, [])
            }
            byKey[id]!.items.append(item)
        }
        order.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        return order.map { rank, text in
            let group = byKey["\(rank)\u{1}\(text)"]!
            return ReportGroup(heading: group.heading, items: group.items)
        }
    }

    /// `2026-03-01 10:12` (UTC, to the minute).
    static func minutes(_ time: Timestamp) -> String {
        String(time.text.prefix(16)).replacingOccurrences(of: "T", with: " ")
    }

    /// `2026-03-01 10:12 ann: the text` (UTC, minutes).
    static func commentLine(_ comment: Comment) -> String {
        let time = minutes(comment.createdAt)
        let text = comment.text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return time + " " + (comment.author ?? "-") + ": " + text
    }

    /// `2026-03-01 10:12 moved by ann` (UTC, minutes).
    static func historyLine(_ entry: HistoryEntry) -> String {
        let time = minutes(entry.at)
        var line = time + " " + entry.action.rawValue
        if entry.action == .status || entry.action == .resolved || entry.action == .reopened, let status = entry.new?.status {
            line += " → " + status.title.lowercased()
        }
        if let author = entry.author, !author.isEmpty { line += " by " + author }
        return line
    }
}

extension PunchListReport {
    /// The marker's fields as label/value pairs, in the order both writers print them.
    static func fields(of item: ReportItem) -> [(String, String)] {
        let marker = item.marker
        var fields: [(String, String)] = [
            ("Status", marker.status.title),
            ("Priority", marker.priority.rawValue),
            ("Category", marker.category ?? "–"),
            ("Assignee", marker.assignee ?? "–"),
            ("Due", marker.due.map { $0.text + (item.overdue ? " (OVERDUE)" : "") } ?? "–"),
            ("Rooms", marker.rooms.isEmpty ? "–" : marker.rooms.joined(separator: ", ")),
            ("Raised", (marker.author.flatMap { $0.isEmpty ? nil : $0 } ?? "–") + ", " + minutes(marker.createdAt)),
        ]
        fields.append(("Note", marker.note ?? "–"))
        return fields
    }

    /// The table of contents' column headings, as both writers print them; `contentsRow` fills them.
    static let contentsHeadings = ["No.", "Room", "Title", "Status", "Assignee", "Due"]

    /// The most characters of a title in the table of contents (longer ones end in `…`).
    static let contentsTitleLength = 120

    /// An item's row in the table of contents: its number, first room, title (the note's first line, at most
    /// `contentsTitleLength` characters), status, assignee and due date (`!` when overdue); `–` for what is not set.
    /// - Complexity: O(the note's first line).
    static func contentsRow(of item: ReportItem) -> [String] {
        let marker = item.marker
        var title = marker.note.flatMap { $0.split(whereSeparator: \.isNewline).first.map(String.init) } ?? "–"
        if title.count > contentsTitleLength { title = title.prefix(contentsTitleLength - 1) + "…" }
        return [String(marker.number), marker.rooms.first ?? "–", title.isEmpty ? "–" : title, marker.status.title,
                marker.assignee.flatMap { $0.isEmpty ? nil : $0 } ?? "–",
                marker.due.map { $0.text + (item.overdue ? " !" : "") } ?? "–"]
    }

    /// Every listed item once (grouping can list one under several headings), by number: the table of contents.
    /// - Complexity: O(m log m).
    var contents: [ReportItem] {
        var seen = Set<Int>()
        var out: [ReportItem] = []
        for group in groups { for item in group.items where seen.insert(item.marker.number).inserted { out.append(item) } }
        return out.sorted { $0.marker.number < $1.marker.number }
    }

    /// `Open 3 · In progress 1 · ...`, statuses with at least one marker (or `no markers`).
    var countsLine: String {
        let parts = counts.filter { $0.count > 0 }.map { "\($0.status.title) \($0.count)" }
        let total = counts.reduce(0) { $0 + $1.count }
        return parts.isEmpty ? "no markers" : "\(total) markers: " + parts.joined(separator: " · ")
    }
}
