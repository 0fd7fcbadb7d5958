/// Why the renderer could not read an image or write its output: one user-facing line naming the file.
///
/// The CLI maps cases to exit codes: missing or unopenable input 66, refused input data 65,
/// output that cannot be created 73, I/O failure 74.
public enum RenderError: Error, CustomStringConvertible, Equatable {
    /// The input file does not exist.
    case inputNotFound(path: String)
    /// The input exists but cannot be opened (permission denied, a directory, ...).
    case cannotOpenInput(path: String, reason: String)
    /// Reading the input failed with an I/O error.
    case inputReadFailed(source: String, reason: String)
    /// The input does not start with the PNG signature.
    case notPNG(source: String)
    /// libpng refused the data: a damaged header, a CRC or zlib error, truncation, ...
    case corruptPNG(source: String, reason: String)
    /// A side of the image is longer than the decoder's side limit (checked before allocation).
    case imageSideTooLarge(source: String, width: Int, height: Int, maxSide: Int)
    /// The image has more pixels than the decoder's pixel budget (checked before allocation).
    case imageTooManyPixels(source: String, width: Int, height: Int, maxPixels: Int)
    /// Memory for the image could not be obtained.
    case outOfMemory(source: String)
    /// The output file cannot be created or put in place (missing folder, permission, a directory there).
    case cannotCreateOutput(path: String, reason: String)
    /// Writing the output failed with an I/O error (disk full, ...); nothing was left at the path.
    case outputWriteFailed(path: String, reason: String)
    /// The image cannot be encoded (empty, or larger than PNG allows).
    case cannotEncode(reason: String)

    /// The one-line message, starting with the file concerned.
    public var description: String {
        switch self {
        case .inputNotFound(let path):
            return "\(path): no such file"
        case .cannotOpenInput(let path, let reason):
            return "\(path): cannot open: \(reason)"
        case .inputReadFailed(let source, let reason):
            return "\(source): cannot read: \(reason)"
        case .notPNG(let source):
            return "\(source): not a PNG file"
        case .corruptPNG(let source, let reason):
            return "\(source): corrupt or unsupported PNG: \(reason)"
        case .imageSideTooLarge(let source, let width, let height, let maxSide):
            return "\(source): \(width)x\(height) pixels exceeds the side limit of \(maxSide) pixels"
        case .imageTooManyPixels(let source, let width, let height, let maxPixels):
            return "\(source): \(width)x\(height) pixels exceeds the limit of \(maxPixels) pixels (--max-pixels)"
        case .outOfMemory(let source):
            return "\(source): out of memory"
        case .cannotCreateOutput(let path, let reason):
            return "\(path): cannot create output: \(reason)"
        case .outputWriteFailed(let path, let reason):
            return "\(path): cannot write output: \(reason)"
        case .cannotEncode(let reason):
            return "cannot encode PNG: \(reason)"
        }
    }
}
