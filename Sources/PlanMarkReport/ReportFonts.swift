#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCairo
import CFreeType

/// DejaVu Sans (regular and bold), the family the review renderer's labels use, loaded through FreeType
/// once per process and shared as cairo font faces (cairo locks a FreeType face while it uses it, so the
/// faces serve several reports at once).
final class ReportFonts: @unchecked Sendable {
    /// Where the fonts are looked for, in order: the folders `PlanMarkRender`'s `TextFont` searches.
    static let folders = [
        "/usr/share/fonts/truetype/dejavu/",
        "/usr/share/fonts/dejavu/",
        "/usr/share/fonts/TTF/",
        "/usr/share/fonts/dejavu-sans-fonts/",
        "/usr/local/share/fonts/",
        "/opt/homebrew/share/fonts/",
        "/Library/Fonts/",
    ]

    /// The regular face.
    let regular: OpaquePointer
    /// The bold face.
    let bold: OpaquePointer

    private init(regular: OpaquePointer, bold: OpaquePointer) {
        self.regular = regular
        self.bold = bold
    }

    /// The shared fonts, or why they could not be loaded.
    static let shared: Result<ReportFonts, ReportError> = {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            return .failure(.font(path: "FreeType", message: "cannot initialise FreeType"))
        }
        func face(_ file: String) -> Result<OpaquePointer, ReportError> {
            let candidates = folders.map { $0 + file }
            guard let path = candidates.first(where: { access($0, R_OK) == 0 }) else {
                return .failure(.font(path: file, message: "not found in " + folders.joined(separator: ", ") + " (install fonts-dejavu-core)"))
            }
            var face: FT_Face?
            let status = FT_New_Face(library, path, 0, &face)
            guard status == 0, let face else { return .failure(.font(path: path, message: "FreeType error \(status)")) }
            // Never released: the faces live as long as the process.
            guard let cairoFace = cairo_ft_font_face_create_for_ft_face(face, 0) else {
                return .failure(.cairo("cannot make a font face of \(path)"))
            }
            return .success(cairoFace)
        }
        switch (face("DejaVuSans.ttf"), face("DejaVuSans-Bold.ttf")) {
        case (.success(let regular), .success(let bold)): return .success(ReportFonts(regular: regular, bold: bold))
        case (.failure(let error), _), (_, .failure(let error)): return .failure(error)
        }
    }()
}
