/// Why a review image could not be drawn: one user-facing line.
///
/// The CLI maps `markerNotFound`, `markerOffDrawing` and `invalidScale`/`invalidMargin` to usage or
/// data errors, and the font cases to a missing-file error.
public enum ReviewError: Error, CustomStringConvertible, Equatable {
    /// No font file was found at any of the standard places.
    case fontNotFound(searched: [String])
    /// FreeType could not load the font file (FreeType error code given).
    case fontUnreadable(path: String, code: Int)
    /// `--around` names a marker that is not in the list.
    case markerNotFound(label: String)
    /// `--around` names a marker whose position is not finite or lies wholly off the drawing.
    case markerOffDrawing(label: String)
    /// The scale factor is not in `(0, 1]`.
    case invalidScale(Double)
    /// The crop margin is negative.
    case invalidMargin(Int)
    /// The marker size is not finite or not in `(0, 10000]`.
    case invalidMarkerSize(Double)

    /// The one-line message.
    public var description: String {
        switch self {
        case .fontNotFound(let searched):
            return "font DejaVu Sans Bold not found (install fonts-dejavu-core); looked in: "
                + searched.joined(separator: ", ")
        case .fontUnreadable(let path, let code):
            return "\(path): FreeType cannot load this font (error \(code))"
        case .markerNotFound(let label):
            return "--around: no marker \(label)"
        case .markerOffDrawing(let label):
            return "--around: marker \(label) is not on the drawing"
        case .invalidScale(let scale):
            return "--scale: \(scale) is not in (0, 1]"
        case .invalidMargin(let margin):
            return "--margin: \(margin) is negative"
        case .invalidMarkerSize(let size):
            return "--marker-size: \(size) is not in (0, 10000]"
        }
    }
}
