import PlanMarkFormats
import PlanMarkGeometry

/// Why a store operation failed or was refused. One user-facing line each (`description`) and a stable `code`;
/// the front doors map cases to exit codes and HTTP statuses.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The store file does not exist (only `drawing add` creates one).
    case missingStore(path: String)
    /// No drawing has this name.
    case unknownDrawing(String)
    /// The drawing has no marker with this number (never given, or removed).
    case unknownMarker(drawing: String, number: Int)
    /// A drawing with this name already exists.
    case duplicateDrawing(String)
    /// The geometry core refused a marker position.
    case invalidMarker(reason: InvalidReason, position: PixelPoint)
    /// The operation was refused by a rule of the store (`drawing "A": marker 1 is already open`).
    case refused(StoreRefusal)
    /// The workflow does not allow this status change (`MarkerStatus.next`).
    case transitionRefused(drawing: String, number: Int, from: MarkerStatus, to: MarkerStatus)
    /// A marker with this uuid is stored already with other content (or on another drawing).
    case uuidConflict(uuid: MarkerUUID, drawing: String, number: Int)
    /// An attachment that is not a JPEG, PNG or PDF, or whose declared type disagrees with its bytes.
    case unsupportedMediaType(String)
    /// A JPEG or PNG photo whose header declares more pixels than photos may have (`PhotoSize.maxPixels`,
    /// `PhotoSize.maxSide`); checked from the header, before anything is decoded or stored.
    case photoTooLarge(PhotoSize)
    /// The drawing has no attachment with this id on this marker.
    case unknownAttachment(drawing: String, number: Int, id: Int64)
    /// The store was written by a newer PlanMark (unknown migrations); this binary does not touch it.
    case newerSchema(path: String, unknownMigrations: [String])
    /// The image file is not a PNG (or its header is damaged).
    case notPNG(path: String, detail: String)
    /// A drawing's or revision's image given as a page of a PDF (`PDFPageImage`) whose bytes do not start with `%PDF-`.
    case notPDF(path: String, detail: String)
    /// The image file does not exist.
    case missingImage(path: String)
    /// The store does not hold the drawing's image and the file it was added from has changed or gone.
    case imageChanged(drawing: String, path: String)
    /// An input file (regions, markers) is missing or malformed.
    case input(FormatError)
    /// A value given by the user is out of range (e.g. a non-finite zoom).
    case invalidArgument(String)
    /// Text that cannot be stored exactly (a NUL character) or a name with control characters.
    case invalidText(field: String, problem: String)
    /// Another writer held the store's lock for longer than the busy timeout; trying again later may work.
    case busy(path: String, seconds: Int)
    /// SQLite or the file system failed.
    case io(String)
    /// The database server could not be reached, or the connection was lost before a write was confirmed (the
    /// write was rolled back, or never reached the server); trying again later may work.
    case unavailable(String)
    /// The drawing has no revision with this number.
    case unknownRevision(drawing: String, number: Int)
    /// The store this process opened was removed or replaced since (an SQLite file removed and made again, a
    /// PostgreSQL database dropped and re-created): writes are refused until the store is opened again.
    case storeReplaced(path: String)
    /// No user has this name.
    case unknownUser(String)
    /// A user with this name exists already.
    case duplicateUser(String)
    /// No project has this name.
    case unknownProject(String)
    /// A project with this name exists already.
    case duplicateProject(String)
    /// The user has no token with this id.
    case unknownToken(user: String, id: Int64)
    /// The user has no role in the project.
    case notAMember(project: String, user: String)
    /// The change named the version the client last saw (`If-Match`), and the marker has another one now: nothing was
    /// changed; `current` is the marker as stored.
    case versionConflict(drawing: String, current: Marker)
    /// The client's `Idempotency-Key` was used before for another request (`IdempotentWrite`): nothing was changed.
    case idempotencyKeyReused(key: String)
    /// The client's `Idempotency-Key` was used before for this request: nothing was changed, and this is the answer it
    /// was given (the service answers it again; never an error to a client).
    case replayed(StoredAnswer)

    /// The stable code of the error (kebab case): the service's `error.code`, listed in its OpenAPI document. A
    /// refused marker position answers the validator's reason (`outside-allowed-area` ...), a refusal its rule's.
    public var code: String {
        switch self {
        case .missingStore: return "missing-store"
        case .unknownDrawing: return "unknown-drawing"
        case .unknownMarker: return "unknown-marker"
        case .duplicateDrawing: return "name-taken"
        case .invalidMarker(let reason, _): return reason.rawValue
        case .refused(let refusal): return refusal.code.rawValue
        case .transitionRefused: return "transition-refused"
        case .uuidConflict: return "uuid-conflict"
        case .unsupportedMediaType: return "unsupported-media-type"
        case .unknownAttachment: return "unknown-attachment"
        case .newerSchema: return "newer-schema"
        case .notPNG: return "not-png"
        case .notPDF: return "not-pdf"
        case .missingImage: return "missing-image"
        case .imageChanged: return "image-changed"
        case .input: return "invalid-input"
        case .invalidArgument: return "invalid-argument"
        case .invalidText: return "invalid-text"
        case .busy: return "store-busy"
        case .io: return "store-error"
        case .unavailable: return "store-unavailable"
        case .unknownRevision: return "unknown-revision"
        case .photoTooLarge: return "photo-too-large"
        case .storeReplaced: return "store-replaced"
        case .unknownUser: return "unknown-user"
        case .duplicateUser: return "user-name-taken"
        case .unknownProject: return "unknown-project"
        case .duplicateProject: return "project-name-taken"
        case .unknownToken: return "unknown-token"
        case .notAMember: return "not-a-member"
        case .versionConflict: return "version-conflict"
        case .idempotencyKeyReused: return "idempotency-key-reused"
        case .replayed: return "replayed"
        }
    }

    /// One line saying what went wrong and where.
    public var description: String {
        switch self {
        case .missingStore(let path):
            return "\(path): no such store (create one with 'planmark drawing add')"
        case .unknownDrawing(let name):
            return "unknown drawing \"\(name)\""
        case .unknownMarker(let drawing, let number):
            return "drawing \"\(drawing)\" has no marker \(number)"
        case .duplicateDrawing(let name):
            return "a drawing named \"\(name)\" already exists"
        case .invalidMarker(let reason, let position):
            return "marker at \(position) refused: \(reason.rawValue)"
        case .refused(let refusal):
            return refusal.description
        case .transitionRefused(let drawing, let number, let from, let to):
            let allowed = from.next.map(\.rawValue).joined(separator: ", ")
            return "drawing \"\(drawing)\": marker \(number) is \(from.rawValue) and cannot become \(to.rawValue) (from \(from.rawValue): \(allowed))"
        case .uuidConflict(let uuid, let drawing, let number):
            return "uuid \(uuid.text) is stored already, with other content, as marker \(number) of drawing \"\(drawing)\""
        case .unsupportedMediaType(let problem):
            return problem
        case .photoTooLarge(let size):
            return "the photo declares \(size) pixels; photos may have \(PhotoSize.limitsText)"
        case .unknownAttachment(let drawing, let number, let id):
            return "drawing \"\(drawing)\": marker \(number) has no attachment \(id)"
        case .newerSchema(let path, let unknown):
            return "\(path): written by a newer planmark (unknown schema migrations: \(unknown.joined(separator: ", "))); upgrade planmark to use this store"
        case .notPNG(let path, let detail):
            return "\(path): not a PNG image: \(detail)"
        case .notPDF(let path, let detail):
            return "\(path): not a PDF: \(detail)"
        case .missingImage(let path):
            return "\(path): no such file"
        case .imageChanged(let drawing, let path):
            return "\(path): the image of drawing \"\(drawing)\" changed or disappeared since it was added (its SHA-256 differs); add the drawing again"
        case .input(let error):
            return error.description
        case .invalidArgument(let message):
            return message
        case .invalidText(let field, let problem):
            return "\(field): \(problem)"
        case .busy(let path, let seconds):
            return "\(path): the store stayed locked by another process for more than \(seconds) s"
        case .io(let message):
            return "store: \(message)"
        case .unavailable(let message):
            return message
        case .unknownRevision(let drawing, let number):
            return "drawing \"\(drawing)\" has no revision \(number)"
        case .storeReplaced(let path):
            return "\(path): the store was removed or replaced since it was opened; nothing was changed (open it again)"
        case .unknownUser(let name):
            return "unknown user \"\(name)\""
        case .duplicateUser(let name):
            return "a user named \"\(name)\" already exists"
        case .unknownProject(let name):
            return "unknown project \"\(name)\""
        case .duplicateProject(let name):
            return "a project named \"\(name)\" already exists"
        case .unknownToken(let user, let id):
            return "user \"\(user)\" has no token \(id)"
        case .notAMember(let project, let user):
            return "user \"\(user)\" has no role in project \"\(project)\""
        case .versionConflict(let drawing, let current):
            return "drawing \"\(drawing)\": marker \(current.number) is at version \(current.version) now, not the one given; nothing was changed"
        case .idempotencyKeyReused(let key):
            return "Idempotency-Key \"\(key)\" was used for another request; nothing was changed (use a new key for a new request)"
        case .replayed(let answer):
            return "the request was made before under its Idempotency-Key (answered \(answer.status)); nothing was changed"
        }
    }
}
