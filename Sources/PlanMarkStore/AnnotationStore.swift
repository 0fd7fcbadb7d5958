import PlanMarkFormats
import PlanMarkGeometry

/// Drawings, their regions and numbered markers, with history. Two back ends implement it (`StoreBackend`): SQLite,
/// embedded (`PlanMarkSQLite`), and PostgreSQL (`PlanMarkPostgres`).
///
/// Every marker write is validated by the geometry core first; a refused write stores nothing.
/// Marker numbers are 1, 2, 3 ... per drawing, given in the same transaction as the insert, never reused.
public protocol AnnotationStore: AnyObject, Sendable {
    /// Adds a drawing (size read from its PNG header, or for a page of a PDF given in `drawing.pdf`) with `regions`.
    func addDrawing(_ drawing: NewDrawing, regions: [Region]) async throws(StoreError) -> Drawing
    /// Every drawing with its counts, by name.
    func drawings() async throws(StoreError) -> [DrawingSummary]
    /// The drawing named `name` with its counts.
    func drawing(named name: String) async throws(StoreError) -> DrawingSummary
    /// The drawing named `name` without its counts (one indexed read, for hot paths such as tiles).
    func drawingRecord(named name: String) async throws(StoreError) -> Drawing
    /// The image the drawing was added with (or revised to), byte for byte: a PNG, or with `pdf` set a PDF.
    func image(of drawing: String) async throws(StoreError) -> DrawingImage
    /// The drawing's regions, in file order.
    func regions(of drawing: String) async throws(StoreError) -> [Region]
    /// Replaces the drawing's regions in one transaction; refused when stored markers would be left
    /// outside the new allowed area, unless `force`.
    func replaceRegions(of drawing: String, with regions: [Region], force: Bool, author: String?) async throws(StoreError) -> RegionsReplacement
    /// Renames a drawing (its markers, history and attachments stay with it).
    func renameDrawing(_ name: String, to newName: String) async throws(StoreError) -> Drawing
    /// Removes a drawing with its regions, markers and attachments in one transaction (its history stays: the chain
    /// goes through it); refused while it has markers unless `force`.
    func removeDrawing(_ name: String, force: Bool) async throws(StoreError) -> DrawingRemoval
    /// Validates and stores a new marker with the next number. A `uuid` stored already for this drawing
    /// with the same position and fields returns that marker (`created == false`, nothing stored); with other
    /// content, or on another drawing, it is `uuidConflict`.
    func addMarker(to drawing: String, _ marker: NewMarker, author: String?) async throws(StoreError) -> MarkerCreation
    /// Imports rows atomically: all valid rows or, when some are invalid and not `skipInvalid`, none.
    func importMarkers<Source: MarkerRowSource>(into drawing: String, from source: inout Source, skipInvalid: Bool, author: String?) async throws(StoreError) -> ImportOutcome
    /// Stores whole items from another system (BCF topics) with their comments in one transaction, or nothing; items
    /// whose uuid this drawing has already are skipped (`StoreBackend.importItems`).
    func importItems(into drawing: String, _ items: [ImportedItem], author: String?) async throws(StoreError) -> ItemsImport
    /// One marker.
    func marker(_ number: Int, in drawing: String) async throws(StoreError) -> Marker
    /// Calls `body` with each marker `filter` takes, by number, until it returns false.
    func forEachMarker(in drawing: String, filter: MarkerFilter, _ body: (Marker) -> Bool) async throws(StoreError)
    /// Applies `change` to every marker of `numbers` in one transaction, or to none; one history entry a marker (the
    /// rules: `MarkerEdit`). A change that changes nothing writes nothing.
    func updateMarkers(_ numbers: [Int], in drawing: String, _ change: MarkerChange, author: String?) async throws(StoreError) -> [Marker]
    /// Attaches a JPEG, PNG or PDF (decided by `bytes`; a `declaredType` that disagrees is refused). Bytes are
    /// stored once per SHA-256.
    func attach(_ bytes: [UInt8], declaredType: AttachmentType?, caption: String?, toMarker number: Int, in drawing: String,
                author: String?) async throws(StoreError) -> Attachment
    /// A marker's attachments, oldest first.
    func attachments(ofMarker number: Int, in drawing: String) async throws(StoreError) -> [Attachment]
    /// One attachment with its bytes.
    func attachment(_ id: Int64, ofMarker number: Int, in drawing: String) async throws(StoreError) -> (Attachment, [UInt8])
    /// Removes an attachment (its bytes go when no other attachment has them).
    func detach(_ id: Int64, fromMarker number: Int, in drawing: String, author: String?) async throws(StoreError) -> Attachment
    /// Removes a marker; its number is never given again and its history is kept.
    func removeMarker(_ number: Int, in drawing: String, author: String?, ifVersion: Int?) async throws(StoreError) -> Marker
    /// The drawing's history (of one marker when `number` is given), oldest first.
    func history(of drawing: String, number: Int?) async throws(StoreError) -> [HistoryEntry]
    /// Calls `body` with each entry of the drawing's whole history, oldest first (an import one entry for its number
    /// range, as `history(of:number: nil)` gives them), until it returns false; not all held in memory.
    func forEachHistoryEntry(in drawing: String, _ body: (HistoryEntry) -> Bool) async throws(StoreError)
    /// A value that changes whenever any marker of the drawing is added, moved, changed, attached to or
    /// removed (by any process), and stays equal otherwise.
    func markersVersion(of drawing: String) async throws(StoreError) -> MarkersVersion
    /// Sets the drawing's scale (metres per pixel) from `calibration`, replacing any earlier one.
    func calibrate(_ drawing: String, with calibration: Calibration) async throws(StoreError) -> Drawing
    /// Gives the drawing a new revision of its sheet: stores the image (content-addressed), carries every
    /// marker through `new.alignment`'s transform and validates it again (new size, allowed area, rooms: `new.regions`
    /// or the current regions transformed), all in one transaction; a marker that no longer validates is kept
    /// at its transformed position with `needsPlacement` set. One `revised` history entry per marker. With
    /// `dryRun` the same outcome is computed and nothing is stored.
    func reviseDrawing(_ drawing: String, _ new: NewRevision, dryRun: Bool, author: String?) async throws(StoreError) -> RevisionOutcome
    /// The drawing's revisions, oldest first (the last is current).
    func revisions(of drawing: String) async throws(StoreError) -> [Revision]
    /// Revision `number`'s record and image, byte for byte.
    func revisionImage(of drawing: String, revision number: Int) async throws(StoreError) -> (Revision, DrawingImage)
    /// Where the drawing's markers were on revision `number` (for the current one, where they are; for an older
    /// one, where each was when the next revision carried it on; markers created later are left out).
    func markerPositions(of drawing: String, onRevision number: Int) async throws(StoreError) -> [Int: PixelPoint]

    // MARK: The team: users, their tokens, projects and roles (`StoreBackend+Team.swift`)

    /// Adds a user; `duplicateUser` when the name is taken.
    func addUser(_ user: User) async throws(StoreError) -> User
    /// Every user, by name.
    func users() async throws(StoreError) -> [User]
    /// The user named `name`.
    func user(named name: String) async throws(StoreError) -> User
    /// Removes a user with their tokens and roles (their history stays, under their name).
    func removeUser(named name: String) async throws(StoreError) -> User
    /// Makes a token for the user; the store keeps only its SHA-256.
    func addToken(for name: String, label: String?, expires: DueDate?, today: DueDate, at now: Timestamp) async throws(StoreError) -> NewToken
    /// The user's tokens, oldest first.
    func tokens(of name: String) async throws(StoreError) -> [UserToken]
    /// Revokes the user's token `id`, or all of them when nil.
    func revokeTokens(_ id: Int64?, of name: String) async throws(StoreError) -> [UserToken]
    /// Adds a project; `duplicateProject` when the name is taken.
    func addProject(named name: String, at now: Timestamp) async throws(StoreError) -> Project
    /// Every project, by name.
    func projects() async throws(StoreError) -> [Project]
    /// Gives a user a role in a project (replacing the one they had there).
    func grant(_ role: ProjectRole, in project: String, to user: String) async throws(StoreError) -> ProjectMember
    /// Takes a user's role in a project away.
    func revoke(_ user: String, from project: String) async throws(StoreError) -> ProjectMember
    /// A project's members, by user name.
    func members(of project: String) async throws(StoreError) -> [ProjectMember]
    /// The user a token signs in, with their roles; nil for a token the store does not have or that expired.
    func signIn(token secret: String, today: DueDate, at now: Timestamp) async throws(StoreError) -> SignedInUser?
    /// Whether the store has any user.
    func hasUsers() async throws(StoreError) -> Bool

    // MARK: Comments and the history chain (`StoreBackend+Comments.swift`)

    /// Adds a comment to a marker's thread (a `commented` history entry).
    func comment(_ text: String, onMarker number: Int, in drawing: String, author: String?) async throws(StoreError) -> Comment
    /// A marker's comments, oldest first.
    func comments(ofMarker number: Int, in drawing: String) async throws(StoreError) -> [Comment]
    /// Every comment of the drawing, oldest first, by marker number.
    func comments(in drawing: String) async throws(StoreError) -> [Int: [Comment]]
    /// The history chain's head: the last entry's hash.
    func historyHead() async throws(StoreError) -> String
    /// The change feed after cursor `since` (0: from the beginning), of drawing `drawing` or of all, at most `limit`
    /// changes, in cursor order; a marker once, at its last change (`ChangeFeed.swift`).
    func changes(since: Int64, drawing: String?, limit: Int) async throws(StoreError) -> ChangePage
    /// The drawings' changes of the feed after cursor `since` (none of the markers'), at most `limit`, in cursor order,
    /// each named as its drawing is now (`ChangeFeedSQL.drawingPage`): for a reader that cares for drawings only.
    func drawingChanges(since: Int64, limit: Int) async throws(StoreError) -> ChangePage
    /// The process's one watcher of the feed: calls `changed` once at the start and then whenever changes may have been
    /// committed, by this process or any other (SQLite: the counter read every `changeWatchInterval`; PostgreSQL: a
    /// `LISTEN` on one connection, which every writing transaction notifies at its commit, with its last cursor);
    /// returns when the task is cancelled. `changed` gets the feed's last cursor when the watcher knows it (it may be
    /// behind a commit whose news is still on its way), nil when it does not (at the start, or after the watcher lost
    /// track).
    func watchChanges(_ changed: @escaping @Sendable (_ latest: Int64?) async -> Void) async
    /// The feed's last cursor committed: a reader starting now reads from here.
    func latestCursor() async throws(StoreError) -> Int64

    /// How many connections the store's calls hold now and how many wait for one.
    var connectionUsage: ConnectionUsage { get }
    /// The local file the whole store is kept in (SQLite), or nil (a database server).
    var file: String? { get }
}

extension AnnotationStore {
    /// No local file (a database server).
    public var file: String? { nil }

    /// Counts of the markers `filter` takes: by status, priority, room and assignee, and overdue.
    /// - Complexity: O(n) for the drawing's n markers (`forEachMarker`).
    public func summary(of drawing: String, filter: MarkerFilter) async throws(StoreError) -> MarkerSummary {
        var summary = MarkerSummary()
        try await forEachMarker(in: drawing, filter: filter) { marker in
            summary.add(marker, today: filter.today)
            return true
        }
        return summary
    }

    /// Removes a marker whatever its version (the last write wins).
    public func removeMarker(_ number: Int, in drawing: String, author: String?) async throws(StoreError) -> Marker {
        try await removeMarker(number, in: drawing, author: author, ifVersion: nil)
    }

    /// Applies every field of `change` to marker `number` in one transaction, or none: a refused position or status
    /// (or any failure) leaves the marker and its history as they were. One history entry records all the fields
    /// that changed, with their exact old values; a change that changes nothing writes nothing. Setting the status a
    /// marker has already is no change.
    /// - Complexity: as `updateMarkers` for one marker.
    public func updateMarker(_ number: Int, in drawing: String, _ change: MarkerChange, author: String?) async throws(StoreError) -> Marker {
        guard let marker = try await updateMarkers([number], in: drawing, change, author: author).first else {
            throw .unknownMarker(drawing: drawing, number: number)
        }
        return marker
    }

    /// Moves a marker; the new position is validated like a new marker's and its rooms recomputed.
    /// - Complexity: as `updateMarker`.
    public func moveMarker(_ number: Int, in drawing: String, to position: PixelPoint, author: String?) async throws(StoreError) -> Marker {
        try await updateMarker(number, in: drawing, MarkerChange(position: position), author: author)
    }

    /// Changes a marker's status as the workflow allows (`transitionRefused` otherwise); the same status is refused
    /// (`already-in-status`).
    /// - Complexity: as `updateMarker`.
    public func setStatus(_ status: MarkerStatus, reason: String?, ofMarker number: Int, in drawing: String,
                          author: String?) async throws(StoreError) -> Marker {
        var change = MarkerChange(status: status, reason: reason)
        change.refusesSameStatus = true
        return try await updateMarker(number, in: drawing, change, author: author)
    }

    /// Changes a marker's note (nil clears it).
    /// - Complexity: as `updateMarker`.
    public func setNote(_ note: String?, ofMarker number: Int, in drawing: String, author: String?) async throws(StoreError) -> Marker {
        try await updateMarker(number, in: drawing, MarkerChange(note: Update(note)), author: author)
    }

    /// Validates and stores a new marker with only a position and a note; returns it with its number.
    public func addMarker(to drawing: String, at position: PixelPoint, note: String?, author: String?) async throws(StoreError) -> Marker {
        try await addMarker(to: drawing, NewMarker(position: position, note: note), author: author).marker
    }

    /// Changes a marker's status as the workflow allows, without a reason.
    public func setStatus(_ status: MarkerStatus, ofMarker number: Int, in drawing: String, author: String?) async throws(StoreError) -> Marker {
        try await setStatus(status, reason: nil, ofMarker: number, in: drawing, author: author)
    }

    /// Calls `body` with each marker by number (optionally only those of `status`) until it returns false.
    public func forEachMarker(in drawing: String, status: MarkerStatus?, _ body: (Marker) -> Bool) async throws(StoreError) {
        try await forEachMarker(in: drawing, filter: MarkerFilter(statuses: status.map { [$0] } ?? []), body)
    }
}
