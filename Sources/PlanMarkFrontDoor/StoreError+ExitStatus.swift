import PlanMarkFormats
import PlanMarkStore

extension StoreError {
    /// The exit status both front doors give this error (the CLI's line says what; `planmark-server` exits with it when
    /// its store cannot be opened): 1 refused or invalid, 64 usage, 65 bad input data, 66 missing, 74 the store's I/O.
    /// - Complexity: O(1).
    public var exitStatus: Int32 {
        switch self {
        case .input(let error): return error.exitStatus
        case .missingStore, .unknownDrawing, .unknownMarker, .missingImage, .unknownAttachment, .unknownRevision, .unknownUser,
             .unknownProject, .unknownToken, .notAMember:
            return ExitStatus.noInput
        case .duplicateDrawing, .invalidMarker, .uuidConflict, .refused, .newerSchema, .transitionRefused, .versionConflict,
             .idempotencyKeyReused, .replayed, .duplicateUser, .duplicateProject:
            return ExitStatus.invalid
        case .unsupportedMediaType, .photoTooLarge, .notPNG, .notPDF, .invalidText, .imageChanged:
            return ExitStatus.dataError
        case .invalidArgument:
            return ExitStatus.usage
        case .io, .busy, .unavailable, .storeReplaced:
            return ExitStatus.ioError
        }
    }
}

extension FormatError {
    /// 66 missing, 74 unreadable, 65 malformed, 64 an option is needed.
    public var exitStatus: Int32 {
        switch kind {
        case .missingInput: return ExitStatus.noInput
        case .unreadable: return ExitStatus.ioError
        case .malformed: return ExitStatus.dataError
        case .usage: return ExitStatus.usage
        }
    }
}
