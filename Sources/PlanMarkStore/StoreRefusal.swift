import PlanMarkFormats

/// Why the store refused a well-formed request because of what it holds: one case a rule, each with a stable
/// `code` that the service answers in its JSON error and the OpenAPI document lists for the operations that can
/// answer it. `description` is the one line the CLI prints.
public enum StoreRefusal: Hashable, Sendable, CustomStringConvertible {
    /// A status change to the status the marker has already (`status` in the CLI, `setStatus`).
    case alreadyInStatus(drawing: String, number: Int, status: MarkerStatus)
    /// A ready marker sent back to open without a reason.
    case reasonRequired(drawing: String, number: Int)
    /// A uuid of the form a drawing makes for its own markers (`DerivedUUID`), for a number it has not given yet.
    case uuidNotIssued(uuid: MarkerUUID, drawing: String, number: Int)
    /// New regions that would leave stored markers outside the allowed area (`numbers`, the first few shown).
    case markersOutsideAllowedArea(drawing: String, numbers: [Int])
    /// A drawing removed while it has markers, without force.
    case drawingHasMarkers(drawing: String, count: Int)
    /// A database that holds tables but is not a PlanMark store (`location`: its path or URL).
    case notAStore(location: String, kind: String)
    /// `store migrate` into a store that already has drawings.
    case destinationNotEmpty(destination: String, drawings: Int)
    /// A region that is no longer valid once carried through a revision's transform.
    case regionInvalidAfterTransform(drawing: String, region: String, problem: String)
    /// A measurement on a drawing that has no scale.
    case noScale(drawing: String)

    /// The refusals' stable codes (kebab case), the same in every front door.
    public enum Code: String, CaseIterable, Sendable {
        case alreadyInStatus = "already-in-status"
        case reasonRequired = "reason-required"
        case uuidNotIssued = "uuid-not-issued"
        case markersOutsideAllowedArea = "markers-outside-allowed-area"
        case drawingHasMarkers = "drawing-has-markers"
        case notAStore = "not-a-store"
        case destinationNotEmpty = "destination-not-empty"
        case regionInvalidAfterTransform = "region-invalid-after-transform"
        case noScale = "no-scale"
    }

    /// This refusal's code.
    public var code: Code {
        switch self {
        case .alreadyInStatus: return .alreadyInStatus
        case .reasonRequired: return .reasonRequired
        case .uuidNotIssued: return .uuidNotIssued
        case .markersOutsideAllowedArea: return .markersOutsideAllowedArea
        case .drawingHasMarkers: return .drawingHasMarkers
        case .notAStore: return .notAStore
        case .destinationNotEmpty: return .destinationNotEmpty
        case .regionInvalidAfterTransform: return .regionInvalidAfterTransform
        case .noScale: return .noScale
        }
    }

    /// One line, `WHERE: what`.
    public var description: String {
        switch self {
        case .alreadyInStatus(let drawing, let number, let status):
            return "drawing \"\(drawing)\": marker \(number) is already \(status.rawValue)"
        case .reasonRequired(let drawing, let number):
            return "drawing \"\(drawing)\": marker \(number) is ready; sending it back to open needs a reason"
        case .uuidNotIssued(let uuid, let drawing, let number):
            return "uuid \(uuid.text): has the form of the uuids drawing \"\(drawing)\" makes, for a marker number it has not given (\(number))"
        case .markersOutsideAllowedArea(let drawing, let numbers):
            let shown = numbers.prefix(10).map(String.init).joined(separator: ", ")
            let more = numbers.count > 10 ? ", ..." : ""
            return "drawing \"\(drawing)\": \(numbers.count) stored marker(s) would be outside the new allowed area (\(shown)\(more)); nothing changed (use --force to replace the regions anyway)"
        case .drawingHasMarkers(let drawing, let count):
            return "drawing \"\(drawing)\": has \(count) marker\(count == 1 ? "" : "s"); remove them first or force the removal"
        case .notAStore(let location, let kind):
            return "\(location): \(kind) that is not a PlanMark store"
        case .destinationNotEmpty(let destination, let drawings):
            return "\(destination): the destination has \(drawings) drawing\(drawings == 1 ? "" : "s"); migrate only into an empty store"
        case .regionInvalidAfterTransform(let drawing, let region, let problem):
            return "drawing \"\(drawing)\": region \(region) carried through the transform is not valid: \(problem)"
        case .noScale(let drawing):
            return "drawing \"\(drawing)\": no scale; calibrate it first with 'planmark drawing calibrate'"
        }
    }
}
