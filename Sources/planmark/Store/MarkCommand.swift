import ArgumentParser
import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// `planmark mark NAME X Y` or `planmark mark NAME --lat LAT --lng LNG`: stores one marker.
struct MarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark",
        abstract: "Place a marker; prints its number.",
        discussion: """
        The position is validated (on the drawing, inside the allowed area); a refused marker prints its reason \
        on stderr, exits 1 and stores nothing. Offline capture: a --uuid already stored on this drawing with the \
        same position and fields stores nothing and prints the stored marker's number; the same uuid with other \
        content is refused (exit 1).
        """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @OptionGroup var position: MarkerPosition

    @Option(name: .long, help: "A note.")
    var note: String?

    @Option(name: .long, help: ArgumentHelp("The item's identifier made by the client (RFC 4122 text); default: the store makes one.", valueName: "uuid"))
    var uuid: String?

    @Option(name: .long, help: ArgumentHelp("The status it starts in: open (default), in-progress, ready, closed or void.", valueName: "S"))
    var status: String?

    @Option(name: .long, help: ArgumentHelp("The category (free text, at most 100 characters).", valueName: "C"))
    var category: String?

    @Option(name: .long, help: ArgumentHelp("The priority: low, normal (default), high or critical.", valueName: "P"))
    var priority: String?

    @Option(name: .long, help: ArgumentHelp("Who it is assigned to.", valueName: "A"))
    var assignee: String?

    @Option(name: .long, help: ArgumentHelp("The due date, YYYY-MM-DD.", valueName: "date"))
    var due: String?

    @Option(name: .long, help: ArgumentHelp("When the client captured it: RFC 3339 with an offset (2026-11-20T09:41:07+01:00).", valueName: "time"))
    var capturedAt: String?

    @OptionGroup var author: AuthorOption

    /// The fields given, checked (a bad value is a usage error naming its option).
    func newMarker(at pixel: PixelPoint) throws(CommandFailure) -> NewMarker {
        var marker = NewMarker(position: pixel, note: note, category: category, assignee: assignee)
        if let uuid {
            guard let value = MarkerUUID(text: uuid) else {
                throw CommandFailure(place: "--uuid", message: "expected RFC 4122 text (8-4-4-4-12 hexadecimal digits), found \"\(uuid)\"", code: Exit.usage)
            }
            marker.uuid = value
        }
        if let status { marker.status = try PunchItemArgument.status(status, place: "--status") }
        if let priority { marker.priority = try PunchItemArgument.priority(priority) }
        if let due { marker.due = try PunchItemArgument.due(due) }
        if let capturedAt {
            guard let value = CaptureTime(text: capturedAt) else {
                throw CommandFailure(place: "--captured-at", message: "expected RFC 3339 with an offset (2026-11-20T09:41:07+01:00), found \"\(capturedAt)\"", code: Exit.usage)
            }
            marker.capturedAt = value
        }
        return marker
    }

    func run() async throws {
        try await storeCommand {
            let store = try await storeOptions.open()
            let drawing = try await store.drawing(named: name).drawing
            let new = try newMarker(at: position.pixel(on: drawing, command: "mark"))
            let creation = try await store.addMarker(to: name, new, author: try await author.resolved(in: store))
            try StandardOutput.print("\(creation.marker.number)\n")
        }
    }
}
