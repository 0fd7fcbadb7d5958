import ArgumentParser
import PlanMarkStore

/// `planmark mark NAME X Y` or `planmark mark NAME --lat LAT --lng LNG`: stores one marker.
struct MarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark",
        abstract: "Place a marker; prints its number.",
        discussion: "The position is validated (on the drawing, inside the allowed area); a refused marker prints its reason on stderr, exits 1 and stores nothing."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The drawing's name.")
    var name: String

    @OptionGroup var position: MarkerPosition

    @Option(name: .long, help: "A note.")
    var note: String?

    @OptionGroup var author: AuthorOption

    func run() throws {
        try storeCommand {
            let store = try storeOptions.open()
            let drawing = try store.drawing(named: name).drawing
            let marker = try store.addMarker(to: name, at: position.pixel(on: drawing, command: "mark"), note: note, author: author.resolved)
            let out = StandardOutput()
            try out.write("\(marker.number)\n")
            try out.flush()
        }
    }
}
