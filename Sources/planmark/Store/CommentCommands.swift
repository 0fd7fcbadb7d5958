import ArgumentParser
import PlanMarkFormats
import PlanMarkStore

/// `planmark comment NAME NUMBER TEXT`: adds a comment to a marker's thread.
struct CommentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comment",
        abstract: "Add a comment to a marker's thread; prints the comment's id.",
        discussion: """
        A comment is a history entry (action commented): it is in the hash chain and can be neither edited nor \
        removed. Empty or blank text, text over 4000 characters, and text with a NUL or a noncharacter are refused \
        (exit 65).
        """
    )

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Argument(help: "The marker's number.") var number: Int
    @Argument(help: "The comment.") var text: String
    @OptionGroup var author: AuthorOption

    func run() async throws {
        try await storeCommand {
            let store = try await storeOptions.open()
            let comment = try await store.comment(text, onMarker: number, in: name, author: try await author.resolved(in: store))
            try StandardOutput.print("\(comment.id)\n")
        }
    }
}

/// `planmark comments NAME NUMBER [--format text|json]`: a marker's thread.
struct CommentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comments",
        abstract: "List a marker's comments, oldest first.",
        discussion: """
        text: one comment a line, `ID  CREATED-AT  AUTHOR: TEXT` (a line break in the text continues on a line \
        indented by four spaces; an unknown author is `-`). json: [{"id","author","createdAt","text"},...], as the \
        service answers.
        """
    )


    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Argument(help: "The marker's number.") var number: Int
    @Option(name: .long, help: "text or json.") var format: TextOrJSON = .text

    func run() async throws {
        try await storeCommand {
            let comments = try await storeOptions.open().comments(ofMarker: number, in: name)
            let out = StandardOutput()
            switch format {
            case .json:
                try out.write(JSONDocument.line(comments))
            case .text:
                for comment in comments {
                    let text = comment.text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n    ")
                    try out.write("\(comment.id)  \(comment.createdAt.text)  \(comment.author ?? "-"): \(text)\n")
                }
            }
            try out.flush()
        }
    }
}
