import Foundation
import PlanMarkExport
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkSheets
import PlanMarkStore

/// A drawing's markers as BCF topics (`planmark export --format bcf`, `GET /drawings/{name}/issues.bcf`): one topic per
/// marker the filter takes, with its fields, its thread (comments and status changes, oldest first), a viewpoint whose
/// snapshot is the sheet around its pin, a document reference to the drawing and its placement. The mapping is the
/// table in docs/bcf.md.
public struct BCFExport: Sendable {
    /// The file's version.
    public var version: BCFVersion
    /// The review page's address (`https://host/`): each topic's document reference links to the marker there.
    public var baseURL: String?
    /// Pixels of the sheet kept on each side of the pin in a snapshot (as `planmark render --around N --margin`).
    public var snapshotMargin: Int
    /// The renderer of the snapshots.
    public var renderer: ReviewRenderer

    public init(version: BCFVersion = .v2_1, baseURL: String? = nil, snapshotMargin: Int = 200, renderer: ReviewRenderer = ReviewRenderer()) {
        self.version = version
        self.baseURL = baseURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.snapshotMargin = snapshotMargin
        self.renderer = renderer
    }

    /// Writes the file: the drawing's markers that `filter` takes, by number.
    /// - Complexity: O(m · (h + r)) for m markers with h history entries each and r markers near each pin, plus the
    ///   sheet decoded once and a crop drawn and encoded per marker.
    public func file(from store: any AnnotationStore, drawing name: String, filter: MarkerFilter) async throws(BCFExportError) -> BCFArchive {
        let drawing: Drawing, regions: [Region], threads: [Int: [PlanMarkStore.Comment]], users: [User], sheet: DrawingImage
        var markers: [Marker] = []
        var histories: [Int: [HistoryEntry]] = [:]
        do {
            drawing = try await store.drawing(named: name).drawing
            regions = try await store.regions(of: drawing.name)
            try await store.forEachMarker(in: drawing.name, filter: filter) { markers.append($0); return true }
            threads = try await store.comments(in: drawing.name)
            users = try await store.users()
            for marker in markers { histories[marker.number] = try await store.history(of: drawing.name, number: marker.number) }
            sheet = try await store.image(of: drawing.name)
        } catch {
            throw .store(error)
        }
        let snapshots = try await self.snapshots(of: markers, drawing: drawing, regions: regions, sheet: sheet, today: filter.today)
        let people = People(users)
        var topics: [BCFTopic] = []
        topics.reserveCapacity(markers.count)
        for (marker, snapshot) in zip(markers, snapshots) {
            topics.append(topic(marker, drawing: drawing, history: histories[marker.number] ?? [], comments: threads[marker.number] ?? [],
                                snapshot: snapshot, people: people))
        }
        let project = BCFProject(id: BCFGuid.make("planmark-drawing", drawing.uuidSeed.description), name: drawing.name)
        return BCFArchive(version: version, project: project, topics: topics)
    }

    /// Marker `marker` as a topic.
    func topic(_ marker: Marker, drawing: Drawing, history: [HistoryEntry], comments: [PlanMarkStore.Comment], snapshot: [UInt8],
               people: People) -> BCFTopic {
        var used: [String: String] = [:]
        func person(_ name: String?) -> String? {
            guard let name, !name.isEmpty else { return nil }
            guard let email = people.email[name] else { return BCFXML.safe(name) }
            used[email] = name
            return email
        }
        let uuid = marker.uuid.text
        var thread: [(at: Timestamp, order: Int64, comment: BCFComment)] = comments.map { comment in
            (comment.createdAt, comment.id, BCFComment(guid: BCFGuid.make("planmark-comment", uuid, String(comment.id)), date: comment.createdAt.text,
                                           author: person(comment.author) ?? BCFPeople.unknown, text: BCFXML.safe(comment.text)))
        }
        var statusComments: [String] = []
        for entry in history {
            guard let from = entry.old?.status, let to = entry.new?.status, from != to else { continue }
            var text = "Status: \(from.title) → \(to.title)."
            if let reason = entry.new?.reason { text += " Reason: \(reason)" }
            let guid = BCFGuid.make("planmark-status", uuid, String(entry.sequence))
            statusComments.append(guid)
            thread.append((entry.at, entry.sequence, BCFComment(guid: guid, date: entry.at.text, author: person(entry.author) ?? BCFPeople.unknown,
                                                text: BCFXML.safe(text))))
        }
        // Oldest first; a comment and a status change of one millisecond in history order (a comment's id is its history
        // entry's, and the store's ids ascend).
        thread.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        let viewpoint = BCFGuid.make("planmark-viewpoint", uuid, String(drawing.revision))
        let firstLine = marker.note?.split(whereSeparator: \.isNewline).first.map(String.init)
        let title = "#\(marker.number)" + ((firstLine ?? marker.category).map { " " + $0 } ?? "")
        // The last change of any kind (a comment and an attachment too), from the history.
        let changed = history.last { $0.action != .created }
        let noCategory = marker.category == nil && version == .v3_0
        return BCFTopic(
            guid: uuid, type: marker.category.map(BCFXML.safe), status: marker.status.rawValue, title: BCFXML.safe(title),
            priority: marker.priority.rawValue, index: marker.number, labels: marker.rooms.map(BCFXML.safe), creationDate: marker.createdAt.text,
            creationAuthor: person(marker.author) ?? BCFPeople.unknown,
            modifiedDate: changed?.at.text, modifiedAuthor: person(changed?.author),
            dueDate: marker.due.map { $0.text + "T00:00:00Z" }, assignedTo: person(marker.assignee), description: marker.note.map(BCFXML.safe),
            documentReferences: [BCFDocumentReference(
                guid: BCFGuid.make("planmark-drawing", drawing.uuidSeed.description, String(drawing.revision), uuid),
                url: link(to: marker, on: drawing), description: BCFXML.safe("Drawing \"\(drawing.name)\", revision \(drawing.revision)"))],
            comments: thread.map(\.comment),
            viewpoints: [BCFViewpoint(guid: viewpoint, snapshot: snapshot)],
            placement: BCFPlacement(drawing: drawing.name, revision: drawing.revision, x: marker.position.x, y: marker.position.y,
                                    number: marker.number, capturedAt: marker.capturedAt?.text, ref: marker.ref, people: used,
                                    statusComments: statusComments, untyped: noCategory))
    }

    /// The review page's link to the marker with a base URL (`BASE/#/NAME/N`); without one, the drawing's path in the
    /// HTTP API relative to a PlanMark server (`drawings/NAME?revision=R`).
    func link(to marker: Marker, on drawing: Drawing) -> String {
        let name = drawing.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? ""
        if let baseURL { return "\(baseURL)/#/\(name)/\(marker.number)" }
        return "drawings/\(name)?revision=\(drawing.revision)"
    }

    /// Each marker's snapshot: the sheet decoded (or its PDF page drawn) once, then a crop around each pin with the
    /// markers near it drawn and the pin ringed, as `planmark render --around N` draws it.
    /// - Complexity: O(sheet pixels) once, then O(m · (m + crop pixels)) for m markers.
    func snapshots(of markers: [Marker], drawing: Drawing, regions: [Region], sheet: DrawingImage, today: DueDate)
        async throws(BCFExportError) -> [[UInt8]] {
        guard !markers.isEmpty else { return [] }
        let image: RGBAImage
        do throws(SheetError) {
            image = try await SheetPixels().image(sheet, source: "drawing \"\(drawing.name)\"")
        } catch {
            throw .sheet(error)
        }
        let validator = MarkerValidator(regions: regions, size: drawing.size)
        let review = markers.map { ReviewMarker(stored: $0, validator: validator, today: today) }
        let reach = Double(snapshotMargin) * 2 + 100
        var snapshots: [[UInt8]] = []
        snapshots.reserveCapacity(markers.count)
        for (index, marker) in markers.enumerated() {
            let near = review.enumerated().filter { other, candidate in
                other == index || (abs(candidate.position.x - marker.position.x) <= reach && abs(candidate.position.y - marker.position.y) <= reach)
            }.map(\.element)
            do {
                let drawn = try renderer.render(drawing: image, regions: regions, markers: near,
                                                options: ReviewOptions(view: .around(label: review[index].label, margin: snapshotMargin)))
                snapshots.append(try PNGEncoder().encode(drawn))
            } catch let error as ReviewError {
                throw .render("marker \(marker.number): \(error)")
            } catch {
                throw .render("marker \(marker.number): \(error)")
            }
        }
        return snapshots
    }
}

/// Why an export could not be made.
public enum BCFExportError: Error, Sendable, CustomStringConvertible {
    case store(StoreError)
    case sheet(SheetError)
    case render(String)
    case file(BCFError)

    public var description: String {
        switch self {
        case .store(let error): return error.description
        case .sheet(let error): return error.description
        case .render(let detail): return "a snapshot could not be drawn: \(detail)"
        case .file(let error): return error.description
        }
    }
}

/// Users' e-mail addresses by name, and names by address.
struct People {
    var email: [String: String] = [:]
    var name: [String: String] = [:]

    init(_ users: [User]) {
        for user in users {
            email[user.name] = user.email
            name[user.email.lowercased()] = user.name
        }
    }
}

enum BCFPeople {
    /// The author written for a marker or comment whose author PlanMark does not know (BCF requires one; `.invalid` is
    /// a domain that can never be anyone's). Read back as no author.
    static let unknown = "unknown@planmark.invalid"
}

/// Guids PlanMark makes for what has none of its own (comments, status changes, viewpoints, the drawing): the same
/// parts give the same Guid in every export, so a tool that imports a file twice sees the same objects. A version-8
/// UUID (RFC 9562) of the first 122 bits of the parts' SHA-256.
enum BCFGuid {
    static func make(_ parts: String...) -> String {
        var hash = SHA256()
        hash.update(Array(parts.joined(separator: "\u{1F}").utf8))
        var digest = hash.finalize()
        digest[6] = digest[6] & 0x0F | 0x80
        digest[8] = digest[8] & 0x3F | 0x80
        let hex = digest.prefix(16).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}
