import PlanMarkFormats

/// What `planmark-pdf info` reports about one PDF: its pages, each page's size in points and in pixels at one
/// resolution, and its sheet name. Written by the child as one JSON object (`json`), read back by the parent
/// (`init(json:)`):
///
///     {"dpi":300,"pageCount":2,"pages":[
///       {"number":1,"widthPoints":612,"heightPoints":792,"width":2550,"height":3300,"name":"A-101 - Ground floor"},
///       {"number":2,"widthPoints":842,"heightPoints":595,"width":3509,"height":2480,"name":null}]}
///
/// (on one line). `name` is always there, `null` for a page without one.
public struct PDFDocumentInfo: Hashable, Sendable {
    /// The resolution the pixel sizes are at, in pixels per inch.
    public var dpi: Double
    /// The pages in order, page 1 first.
    public var pages: [PDFPageInfo]

    /// The number of pages.
    public var pageCount: Int { pages.count }

    /// The longest sheet name reported, in Unicode scalars; a longer outline title or page label is cut there (no
    /// real sheet name comes near it), so that the JSON of a document is bounded by its page count
    /// (`maxJSONBytes(maxPages:)`).
    public static let maxNameScalars = 1000

    /// The most bytes the JSON of a document of at most `maxPages` pages can have: 8 KiB a page (a name of
    /// `maxNameScalars` scalars escaped as `\u001f` is 6,000 bytes; the rest of a page's object under 300) and 8 KiB
    /// more. The parent reads no more than this.
    /// - Complexity: O(1).
    public static func maxJSONBytes(maxPages: Int) -> Int {
        let (bytes, overflow) = (max(0, maxPages) + 1).multipliedReportingOverflow(by: 8 << 10)
        return overflow ? Int.max : bytes
    }

    /// Info of pages measured at `dpi`.
    public init(dpi: Double, pages: [PDFPageInfo]) {
        self.dpi = dpi
        self.pages = pages
    }

    /// The info as one line of JSON (no line break), the shape above.
    /// - Complexity: O(p + n) for p pages and n bytes of names.
    public var json: String {
        let pageValues: [JSONValue] = pages.map { page in
            .object([
                ("number", .number(Double(page.number))),
                ("widthPoints", .number(page.widthPoints)),
                ("heightPoints", .number(page.heightPoints)),
                ("width", .number(Double(page.width))),
                ("height", .number(Double(page.height))),
                ("name", page.name.map { .string($0) } ?? .null),
            ])
        }
        return JSONValue.object([("dpi", .number(dpi)), ("pageCount", .number(Double(pageCount))), ("pages", .array(pageValues))]).serialized
    }

    /// Reads back what `json` wrote, checking every member: pages numbered 1, 2, ... with `pageCount` of them, sizes
    /// finite and not negative, pixel sizes whole numbers, names strings or null.
    /// - Throws: `PDFOutputError` naming what is wrong.
    /// - Complexity: O(n) for n bytes.
    public init(json bytes: [UInt8]) throws(PDFOutputError) {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw PDFOutputError("the info is not JSON: line \(error.line): \(error.message)") }
        guard case .number(let dpi)? = root["dpi"], dpi.isFinite, dpi > 0 else { throw PDFOutputError("the info has no valid dpi") }
        guard case .array(let values)? = root["pages"] else { throw PDFOutputError("the info has no pages array") }
        guard case .number(let count)? = root["pageCount"], count == Double(values.count) else {
            throw PDFOutputError("the info's pageCount does not match its \(values.count) pages")
        }
        var pages: [PDFPageInfo] = []
        pages.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            func whole(_ key: String) throws(PDFOutputError) -> Int {
                guard case .number(let number)? = value[key], number >= 0, number < 0x1p62, number == number.rounded() else {
                    throw PDFOutputError("page \(index + 1) of the info: \(key) is not a whole number of 0 or more")
                }
                return Int(number)
            }
            func points(_ key: String) throws(PDFOutputError) -> Double {
                guard case .number(let number)? = value[key], number.isFinite, number >= 0 else {
                    throw PDFOutputError("page \(index + 1) of the info: \(key) is not a size in points")
                }
                return number
            }
            guard try whole("number") == index + 1 else { throw PDFOutputError("page \(index + 1) of the info has another number") }
            let name: String?
            switch value["name"] {
            case .string(let text)?: name = text
            case .null?: name = nil
            default: throw PDFOutputError("page \(index + 1) of the info: name is neither a string nor null")
            }
            pages.append(PDFPageInfo(
                number: index + 1, widthPoints: try points("widthPoints"), heightPoints: try points("heightPoints"),
                width: try whole("width"), height: try whole("height"), name: name
            ))
        }
        self.init(dpi: dpi, pages: pages)
    }
}

/// One page of a `PDFDocumentInfo`.
public struct PDFPageInfo: Hashable, Sendable {
    /// The page's number, from 1.
    public var number: Int
    /// Width in points (1/72 inch), as displayed (after the page's rotation).
    public var widthPoints: Double
    /// Height in points, as displayed.
    public var heightPoints: Double
    /// Width in pixels at the info's dpi (`PDFPixels.side(points:dpi:)`).
    public var width: Int
    /// Height in pixels at the info's dpi.
    public var height: Int
    /// The sheet name (the outline's title for the page, else its page label; see PlanMarkPDF's `sheetNames()`), at
    /// most `PDFDocumentInfo.maxNameScalars` Unicode scalars; nil when the page has none.
    public var name: String?

    /// A page's info.
    public init(number: Int, widthPoints: Double, heightPoints: Double, width: Int, height: Int, name: String?) {
        self.number = number
        self.widthPoints = widthPoints
        self.heightPoints = heightPoints
        self.width = width
        self.height = height
        self.name = name
    }

    /// `name` cut to its first `PDFDocumentInfo.maxNameScalars` Unicode scalars.
    /// - Complexity: O(n) for n scalars (at most the limit are looked at past it).
    public static func shortened(_ name: String) -> String {
        let scalars = name.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: PDFDocumentInfo.maxNameScalars, limitedBy: scalars.endIndex),
              end != scalars.endIndex else { return name }
        return String(scalars[..<end])
    }
}

/// What `planmark-pdf` wrote on its standard output is not what it should have: a reason for the parent's
/// `PDFProcessError.badOutput`. (The child and the parent are built together, so this means a broken build or a
/// child that died halfway.)
public struct PDFOutputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, in one line.
    public var reason: String

    /// An error with its reason.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
