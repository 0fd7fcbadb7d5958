import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkRender
import PlanMarkStore

/// `planmark drawing revise NAME NEW.png|NEW.pdf`: a new revision of the drawing's sheet, markers carried over.
struct DrawingReviseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revise",
        abstract: "Give a drawing a new revision of its sheet and carry every marker over to it.",
        discussion: """
        The new PNG, or page of a PDF (--page, and --dpi: default the drawing's own when it is a PDF, else 300), becomes the drawing's current image \
        (the store keeps every revision's). Markers are carried \
        through a transform from the previous sheet to the new one: the identity without --align; with two \
        point pairs the similarity (scale, rotation, translation) through both; with three or more the \
        least-squares affine, refused when a pair's residual exceeds --max-residual. Every marker is validated \
        again against the new size, allowed area and rooms (--regions, else the current regions carried through \
        the same transform) and its rooms reassigned; one that no longer validates is kept where the transform \
        put it and flagged needsPlacement with the reason (moving it clears the flag). All in one transaction. \
        Exit status: 0 stored (or, with --dry-run, what would be stored), 1 a residual over --max-residual \
        (nothing stored), 64 a bad or degenerate --align, no such page or --page/--dpi with a PNG, 65 not a PNG or a \
        PDF that cannot be read or drawn, or bad regions, 66 no such drawing, store or image, 69 planmark-pdf missing, \
        74 store I/O. Once stored, the new sheet's tile pyramid is written as 'drawing add' writes it \
        (--tile-cache, --no-tiles).
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @Argument(help: ArgumentHelp("The new revision's image: a PNG, or a PDF (one page of it).", valueName: "new.png|new.pdf"))
    var image: String

    @Option(name: .long, help: ArgumentHelp("For a PDF: the page that is the new sheet, from 1 (default 1).", valueName: "n"))
    var page: Int?

    @OptionGroup var resolution: PDFResolutionOption

    @Option(name: .long, help: ArgumentHelp("The new sheet's regions GeoJSON (default: the current regions, transformed).", valueName: "file"))
    var regions: String?

    @Option(name: .long, help: ArgumentHelp("Point pairs, previous sheet = new sheet, in pixels: \"x1,y1=X1,Y1;x2,y2=X2,Y2[;...]\".",
                                            valueName: "pairs"))
    var align: String?

    @Option(name: .long, help: ArgumentHelp("The largest residual allowed for three or more pairs, in pixels.", valueName: "px"))
    var maxResidual: DecimalArgument = DecimalArgument(argument: "2")!

    @Flag(name: .long, help: "Print what would happen; store nothing.")
    var dryRun = false

    @Option(name: .long, help: "text or json.")
    var format: TextOrJSON = .text

    @Option(name: .long, help: "Refuse images with more pixels than this (checked before decoding), as render does.")
    var maxPixels: Int = PNGDecoder.defaultMaxPixels

    @OptionGroup var tiles: TileCacheOptions

    @OptionGroup var author: AuthorOption

    func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
        guard maxResidual.value >= 0 else { throw ValidationError("--max-residual must be 0 or more") }
        if let page, page < 1 { throw ValidationError("--page must be 1 or more (pages are counted from 1)") }
    }

    /// Parses `--align`: pairs separated by `;`, each `x,y=X,Y` of finite decimal numbers.
    static func pairs(_ text: String) throws(CommandFailure) -> [AlignmentPair] {
        func failure(_ message: String) -> CommandFailure { CommandFailure(place: "--align", message: message, code: Exit.usage) }
        func point(_ text: Substring, pair: Int) throws(CommandFailure) -> PixelPoint {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            func trimmed(_ text: Substring) -> Substring {
                text.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed().reduce(into: "") { $0.append($1) }
            }
            guard parts.count == 2, let x = decimalNumber(trimmed(parts[0])), let y = decimalNumber(trimmed(parts[1])) else {
                throw failure("pair \(pair): \"\(text)\" is not x,y (two finite decimal numbers)")
            }
            return PixelPoint(x: x, y: y)
        }
        var pairs: [AlignmentPair] = []
        for (index, item) in text.split(separator: ";", omittingEmptySubsequences: true).enumerated() {
            let sides = item.split(separator: "=", omittingEmptySubsequences: false)
            guard sides.count == 2 else { throw failure("pair \(index + 1): \"\(item)\" is not x,y=X,Y") }
            pairs.append(AlignmentPair(from: try point(sides[0], pair: index + 1), to: try point(sides[1], pair: index + 1)))
        }
        return pairs
    }

    func run() async throws {
        let alignment: Alignment
        do {
            alignment = try Alignment.fit(align.map { try Self.pairs($0) } ?? [])
        } catch let error as AlignmentError {
            throw fail(CommandFailure(place: "--align", message: error.description, code: Exit.usage))
        } catch {
            throw fail(error)
        }
        if let worst = alignment.residuals.indices.max(by: { alignment.residuals[$0] < alignment.residuals[$1] }),
           alignment.residuals[worst] > maxResidual.value {
            throw fail(CommandFailure(place: "--align",
                                      message: "the residual of pair \(worst + 1) is \(Self.number(alignment.residuals[worst])) px, over --max-residual \(Self.number(maxResidual.value)) px; nothing stored",
                                      code: Exit.invalid))
        }
        var regionList: [Region]?
        if let regions {
            do { regionList = try RegionsFile.read(path: regions) } catch { throw fail(error) }
        }
        let bytes: [UInt8]
        var pdf: PDFPageImage?
        do {
            bytes = try InputFile.readAll(path: image)
            if PDFPages.isPDF(bytes) {
                // Without --dpi, a PDF sheet revised keeps its resolution, so that a page of the same paper size has the same pixels.
                let current = resolution.dpi == nil ? try await storeCommand { try await storeOptions.open().drawing(named: name).drawing.pdf?.dpi } : nil
                pdf = try await PDFPages(file: image, dpi: resolution.dpi ?? current ?? PDFResolutionOption.defaultDPI, maxPixels: maxPixels)
                    .image(page: page ?? 1)
            } else {
                guard page == nil, resolution.dpi == nil else {
                    throw CommandFailure(place: image, message: "--page and --dpi are for a PDF; this is not one", code: Exit.usage)
                }
                _ = try PNGDecoder(maxPixels: maxPixels).verify(data: bytes, source: image)
            }
        } catch let error as FormatError where error.kind == .missingInput {
            throw fail(StoreError.missingImage(path: image))
        } catch {
            throw fail(error)
        }
        try await storeCommand {
            let store = try await storeOptions.open()
            let outcome = try await store.reviseDrawing(name, NewRevision(imagePath: image, imageBytes: bytes, alignment: alignment, regions: regionList, pdf: pdf),
                                                  dryRun: dryRun, author: try await author.resolved(in: store))
            let out = StandardOutput()
            switch format {
            case .text: try out.write(Self.text(outcome, drawing: name))
            case .json: try out.write(Self.json(outcome, drawing: name) + "\n")
            }
            try out.flush()
            if !outcome.dryRun {
                await tiles.writePyramid(of: try await store.drawing(named: name).drawing, image: bytes, storeFile: store.file)
            }
        }
    }

    /// A number as JSON writes it (shortest round trip, integers without `.0`).
    static func number(_ value: Double) -> String { JSONNumber.text(value) }

    /// The text report: the revision, the transform, the residuals, the counts and the markers to place again.
    static func text(_ outcome: RevisionOutcome, drawing: String) -> String {
        let r = outcome.revision
        var out = outcome.dryRun ? "dry run: nothing stored\n" : ""
        out += "drawing \"\(drawing)\": revision \(r.number) (from \(outcome.previous)), \(r.width)x\(r.height) px, \(r.imagePath)\n"
        let t = r.transform ?? .identity
        out += "transform: x' = \(number(t.a)) x + \(number(t.b)) y + \(number(t.c)), y' = \(number(t.d)) x + \(number(t.e)) y + \(number(t.f))\n"
        if !outcome.residuals.isEmpty {
            // For people: to 0.1 px (`Quantity.pixels`); the JSON keeps each residual whole.
            out += "residuals (px): " + outcome.residuals.map(Quantity.pixels.text).joined(separator: " ") + "\n"
        }
        out += "markers: \(outcome.carried) carried, \(outcome.roomsChanged) changed rooms, \(outcome.unplaced.count) need placement\n"
        if !outcome.unplaced.isEmpty {
            out += "number\treason\tfrom\tto\n"
            for marker in outcome.unplaced {
                out += "\(marker.number)\t\(marker.reason)\t\(number(marker.from.x)) \(number(marker.from.y))\t\(number(marker.to.x)) \(number(marker.to.y))\n"
            }
        }
        return out
    }

    /// The JSON report: `{"drawing","revision","previous","dryRun","image","sha256","width","height","transform":{a..f},
    /// "residuals":[...],"maxResidual","markers","roomsChanged","regions","needsPlacement":[{"number","reason","from":[x,y],"to":[x,y]}]}`.
    static func json(_ outcome: RevisionOutcome, drawing: String) -> String {
        struct Unplaced: Encodable { var number: Int; var reason: String; var from: [Double]; var to: [Double] }
        struct Report: Encodable {
            var drawing: String
            var revision, previous: Int
            var dryRun: Bool
            var image, sha256: String
            var width, height: Int
            var transform: AffineMap
            var residuals: [Double]
            var maxResidual: Double
            var markers, roomsChanged, regions: Int
            var needsPlacement: [Unplaced]
        }
        let r = outcome.revision
        return JSONDocument.text(Report(
            drawing: drawing, revision: r.number, previous: outcome.previous, dryRun: outcome.dryRun, image: r.imagePath,
            sha256: r.imageSHA256, width: r.width, height: r.height, transform: r.transform ?? .identity, residuals: outcome.residuals,
            maxResidual: outcome.residuals.max() ?? 0, markers: outcome.carried, roomsChanged: outcome.roomsChanged, regions: outcome.regionCount,
            needsPlacement: outcome.unplaced.map { Unplaced(number: $0.number, reason: "\($0.reason)", from: [$0.from.x, $0.from.y], to: [$0.to.x, $0.to.y]) }))
    }
}
