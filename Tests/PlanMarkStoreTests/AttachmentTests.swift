import PlanMarkFormats
import PlanMarkGeometry
import Testing
@testable import PlanMarkStore

/// Photos and documents on markers: typed by their bytes, stored once per SHA-256, served back as stored.
@Suite struct AttachmentTests {
    /// The first bytes of each kind, made by hand (the formats' signatures), with some payload after.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xFF, 0xD9]
    static let png: [UInt8] = StoreFixtures.pngHeader(width: 1, height: 1) + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    static let pdf: [UInt8] = Array("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n".utf8)

    static func store(_ kind: StoreKind = .sqlite) async throws -> any AnnotationStore {
        let (store, _) = try await StoreFixtures.storeWithDrawing(kind)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 50, y: 50), note: nil, author: nil)
        _ = try await store.addMarker(to: "A", at: PixelPoint(x: 60, y: 50), note: nil, author: nil)
        return store
    }

    @Test(arguments: StoreFixtures.kinds, [(jpeg, "image/jpeg"), (png, "image/png"), (pdf, "application/pdf")])
    func kindsAccepted(kind: StoreKind, _ arguments: ([UInt8], String)) async throws {
        let (bytes, type) = arguments
        let store = try await Self.store(kind)
        let attachment = try await store.attach(bytes, declaredType: nil, caption: "north wall", toMarker: 1, in: "A", author: "ana")
        #expect(attachment.contentType == type && attachment.size == bytes.count && attachment.caption == "north wall")
        #expect(attachment.sha256 == SHA256.hexDigest(of: bytes))
        let (stored, back) = try await store.attachment(attachment.id, ofMarker: 1, in: "A")
        #expect(stored == attachment && back == bytes)
        #expect(try await store.attachments(ofMarker: 1, in: "A") == [attachment])
        let entry = try #require(try await store.history(of: "A", number: 1).last)
        #expect(entry.action == .attached && entry.author == "ana" && entry.new?.attachment?.id == attachment.id)
        // The history keeps the attachment's shape (written out by hand here).
        #expect(entry.new?.jsonText == "{\"attachment\":{\"id\":\(attachment.id),\"sha256\":\"\(SHA256.hexDigest(of: bytes))\","
                + "\"size\":\(bytes.count),\"contentType\":\"\(type)\",\"caption\":\"north wall\"}}")
    }

    @Test(arguments: StoreFixtures.kinds) func otherBytesAndDisagreeingTypesAreRefused(kind: StoreKind) async throws {
        let store = try await Self.store(kind)
        let before = try await StoreFixtures.counts(store)
        // A text file renamed photo.jpg: the name plays no part, the bytes decide.
        await #expect(throws: StoreError.self) { try await store.attach(Array("not a photo\n".utf8), declaredType: nil, caption: nil, toMarker: 1, in: "A", author: nil) }
        await #expect(throws: StoreError.self) { try await store.attach([], declaredType: nil, caption: nil, toMarker: 1, in: "A", author: nil) }
        await #expect(throws: StoreError.unsupportedMediaType("the file is declared image/jpeg but its bytes are image/png")) {
            try await store.attach(Self.png, declaredType: .jpeg, caption: nil, toMarker: 1, in: "A", author: nil)
        }
        #expect(try await StoreFixtures.counts(store) == before)
    }

    @Test(arguments: StoreFixtures.kinds) func samePhotoTwiceIsStoredOnce(kind: StoreKind) async throws {
        let store = try await Self.store(kind)
        let one = try await store.attach(Self.jpeg, declaredType: .jpeg, caption: nil, toMarker: 1, in: "A", author: nil)
        let two = try await store.attach(Self.jpeg, declaredType: nil, caption: "again", toMarker: 2, in: "A", author: nil)
        #expect(one.id != two.id && one.sha256 == two.sha256)
        func blobs() async throws -> Int { try await StoreFixtures.counts(store)[5] }
        #expect(try await blobs() == 1)
        _ = try await store.detach(one.id, fromMarker: 1, in: "A", author: "bo")
        #expect(try await blobs() == 1)
        #expect(try await store.attachments(ofMarker: 1, in: "A").isEmpty)
        #expect(try await store.attachment(two.id, ofMarker: 2, in: "A").1 == Self.jpeg)
        #expect(try await store.history(of: "A", number: 1).last?.action == .detached)
        // The attachment belongs to marker 2 only.
        await #expect(throws: StoreError.unknownAttachment(drawing: "A", number: 1, id: two.id)) { try await store.attachment(two.id, ofMarker: 1, in: "A") }
        _ = try await store.removeMarker(2, in: "A", author: nil)
        #expect(try await blobs() == 0)
        #expect(try await StoreFixtures.counts(store)[4] == 0)
    }

    @Test func sniffing() async {
        #expect(AttachmentType(sniffing: Self.jpeg) == .jpeg && AttachmentType(sniffing: Self.png) == .png && AttachmentType(sniffing: Self.pdf) == .pdf)
        #expect(AttachmentType(sniffing: [0xFF, 0xD8]) == nil && AttachmentType(sniffing: Array("%PDF".utf8)) == nil)
        #expect(AttachmentType(sniffing: Array(Self.png.prefix(7))) == nil)
        #expect(AttachmentType(contentType: "Image/JPEG; charset=x") == .jpeg && AttachmentType(contentType: "image/jpg") == .jpeg)
        #expect(AttachmentType(contentType: "text/plain") == nil && AttachmentType(contentType: "application/octet-stream") == nil)
    }
}
