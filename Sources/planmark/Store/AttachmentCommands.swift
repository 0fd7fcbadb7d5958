import ArgumentParser
import PlanMarkExport
import PlanMarkFormats
import PlanMarkStore

/// `planmark attach NAME NUMBER FILE [--caption TEXT]`: attaches a photo or document to a marker.
struct AttachCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Attach a photo or document (JPEG, PNG or PDF) to a marker; prints the attachment's id.",
        discussion: """
        The type is decided by the file's first bytes, never by its name: anything else is refused with exit 65. \
        A file over --max-attachment is refused from its size before it is read (exit 65); a JPEG or PNG whose \
        header declares more than 100,000,000 pixels or 20,000 a side is refused before it is stored (exit 65). The bytes are \
        stored inside the store once per SHA-256: the same photo attached twice is kept once.
        """
    )

    /// 20 MiB, as the service's default.
    static let defaultMaxAttachment = 20 << 20

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Argument(help: "The marker's number.") var number: Int
    @Argument(help: ArgumentHelp("The JPEG, PNG or PDF file.", valueName: "file")) var file: String
    @Option(name: .long, help: ArgumentHelp("A caption.", valueName: "text")) var caption: String?
    @Option(name: .long, help: ArgumentHelp("Refuse files larger than this many bytes (default 20 MiB, 20971520).", valueName: "bytes"))
    var maxAttachment: Int = AttachCommand.defaultMaxAttachment
    @OptionGroup var author: AuthorOption

    func validate() throws {
        guard maxAttachment > 0 else { throw ValidationError("--max-attachment must be positive") }
    }

    /// The file's bytes; one over --max-attachment is refused from its size, before it is read (65).
    func readFile() throws -> [UInt8] {
        let input = try InputFile(path: file)
        do {
            return try input.readAll(limit: maxAttachment)
        } catch {
            if error.kind == .malformed {
                throw CommandFailure(place: file, message: "larger than --max-attachment (\(maxAttachment) bytes)", code: Exit.dataError)
            }
            throw error
        }
    }

    func run() async throws {
        try await storeCommand {
            let store = try await storeOptions.open()
            _ = try await store.marker(number, in: name)
            let bytes = try readFile()
            guard let type = AttachmentType(sniffing: bytes) else {
                throw CommandFailure(place: file, message: "not a JPEG, PNG or PDF (judged by its first bytes)", code: Exit.dataError)
            }
            if let size = PhotoSize(of: bytes, type: type), !size.isWithinLimits {
                throw CommandFailure(place: file, message: "declares \(size) pixels; photos may have \(PhotoSize.limitsText)", code: Exit.dataError)
            }
            let attachment = try await store.attach(bytes, declaredType: nil, caption: caption, toMarker: number, in: name, author: try await author.resolved(in: store))
            try StandardOutput.print("\(attachment.id)\n")
        }
    }
}

/// `planmark attachments NAME NUMBER [--format text|json]`: lists a marker's attachments.
struct AttachmentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attachments",
        abstract: "List a marker's attachments, oldest first.",
        discussion: """
        text: tab-separated id, contentType, size, sha256, createdAt, caption under a header line. \
        json: {"attachments":[{"id","sha256","size","contentType","caption"},...]}, as the service answers.
        """
    )


    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Argument(help: "The marker's number.") var number: Int
    @Option(name: .long, help: "text or json.") var format: TextOrJSON = .text

    func run() async throws {
        try await storeCommand {
            let attachments = try await storeOptions.open().attachments(ofMarker: number, in: name)
            let out = StandardOutput()
            switch format {
            case .json:
                try out.write(JSONDocument.line(AttachmentJSON(attachments)))
            case .text:
                var text = "id\tcontentType\tsize\tsha256\tcreatedAt\tcaption\n"
                for a in attachments {
                    text += "\(a.id)\t\(a.contentType)\t\(a.size)\t\(a.sha256)\t\(a.createdAt.text)\t\(a.caption ?? "")\n"
                }
                try out.write(text)
            }
            try out.flush()
        }
    }
}

/// `planmark attachment NAME NUMBER ID -o FILE`: writes an attachment's bytes.
struct AttachmentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attachment",
        abstract: "Write an attachment's bytes to a file (-o - for stdout), exactly as attached.",
        discussion: "The file appears whole or not at all (written to a temporary file, synced, renamed)."
    )

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Argument(help: "The marker's number.") var number: Int
    @Argument(help: "The attachment's id.") var id: Int64
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The file to write; - for stdout.", valueName: "file"))
    var output: String

    func validate() throws {
        guard !output.isEmpty else { throw ValidationError("-o needs a file name or -") }
    }

    func run() async throws {
        try await storeCommand {
            let (_, bytes) = try await storeOptions.open().attachment(id, ofMarker: number, in: name)
            if output == "-" {
                try StandardOutput.print(bytes)
            } else {
                let file = try AtomicFile(path: output)
                try file.write(bytes)
                try file.commit()
            }
        }
    }
}

/// `planmark detach NAME NUMBER ID`: removes an attachment.
struct DetachCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detach",
        abstract: "Remove an attachment from a marker; prints detached ID.",
        discussion: "Its bytes leave the store when no other attachment has them. The history keeps the change."
    )

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The drawing's name.") var name: String
    @Argument(help: "The marker's number.") var number: Int
    @Argument(help: "The attachment's id.") var id: Int64
    @OptionGroup var author: AuthorOption

    func run() async throws {
        try await storeCommand {
            let store = try await storeOptions.open()
            let attachment = try await store.detach(id, fromMarker: number, in: name, author: try await author.resolved(in: store))
            try StandardOutput.print("detached \(attachment.id)\n")
        }
    }
}
