import CPNG

/// One open CPNG reader: owns the C object (and, for files, the open file) until deinit.
///
/// Lives only inside a decoder call; for memory input the bytes it reads must outlive it.
final class PNGReadSession {
    /// The C reader; never nil after a successful init.
    private let reader: OpaquePointer
    /// How errors name the input.
    let source: String
    /// Limits the reader was created with.
    private let maxSide: Int

    /// Opens a file; `.inputNotFound` when it does not exist.
    init(path: String, decoder: PNGDecoder) throws(RenderError) {
        source = path
        maxSide = decoder.maxSide
        reader = try Self.makeReader(decoder: decoder, source: path)
        let status = cpng_reader_open_file(reader, path)
        // All stored properties are set, so deinit frees the reader when this throws.
        if status != CPNG_OK { throw Self.error(status, reader: reader, source: path, maxSide: maxSide) }
    }

    /// Reads from memory that the caller keeps alive for the session's lifetime.
    init(bytes: UnsafeBufferPointer<UInt8>, source: String, decoder: PNGDecoder) throws(RenderError) {
        self.source = source
        maxSide = decoder.maxSide
        reader = try Self.makeReader(decoder: decoder, source: source)
        let status = cpng_reader_open_memory(reader, bytes.baseAddress, bytes.count)
        // All stored properties are set, so deinit frees the reader when this throws.
        if status != CPNG_OK { throw Self.error(status, reader: reader, source: source, maxSide: maxSide) }
    }

    deinit { cpng_reader_destroy(reader) }

    /// Reads the signature and the chunks before the first IDAT.
    func readHeader() throws(RenderError) -> PNGFileHeader {
        var raw = cpng_header()
        let status = cpng_reader_read_header(reader, &raw)
        guard status == CPNG_OK else { throw Self.error(status, reader: reader, source: source, maxSide: maxSide) }
        return PNGFileHeader(raw)
    }

    /// Decodes the pixels into a fresh RGBA buffer of `header.width * header.height * 4` bytes.
    /// The caller has already checked the limits.
    func readPixels(_ header: PNGFileHeader) throws(RenderError) -> [UInt8] {
        let count = header.width * header.height * 4
        assert(count > 0, "PNG sides are at least 1")
        var status = CPNG_OK
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialised in
            status = cpng_reader_read_rgba(reader, buffer.baseAddress, count)
            initialised = status == CPNG_OK ? count : 0
        }
        guard status == CPNG_OK else { throw Self.error(status, reader: reader, source: source, maxSide: maxSide) }
        return pixels
    }

    /// Prepares to read rows in bands; false (nothing read) for an interlaced image, which is read whole.
    func beginRows(_ header: PNGFileHeader) throws(RenderError) -> Bool {
        if header.isInterlaced { return false }
        let status = cpng_reader_begin_rows(reader)
        guard status == CPNG_OK else { throw Self.error(status, reader: reader, source: source, maxSide: maxSide) }
        return true
    }

    /// Decodes the next `count` rows into `pixels` (`count * width * 4` bytes) after `beginRows`.
    func readRows(into pixels: UnsafeMutablePointer<UInt8>, count: Int) throws(RenderError) {
        let status = cpng_reader_read_rows(reader, pixels, UInt32(count))
        guard status == CPNG_OK else { throw Self.error(status, reader: reader, source: source, maxSide: maxSide) }
    }

    /// Reads every row without keeping the pixels (memory for one row).
    func checkRows() throws(RenderError) {
        let status = cpng_reader_check_rows(reader)
        guard status == CPNG_OK else { throw Self.error(status, reader: reader, source: source, maxSide: maxSide) }
    }

    /// libpng's warnings so far, one per element.
    var warnings: [String] {
        String(cString: cpng_reader_warnings(reader)).split(separator: "\n").map(String.init)
    }

    private static func makeReader(decoder: PNGDecoder, source: String) throws(RenderError) -> OpaquePointer {
        let side = UInt32(clamping: max(1, decoder.maxSide))
        guard let reader = cpng_reader_create(side, side, max(1, decoder.maxChunkBytes)) else {  // 0 would mean "no limit" to libpng
            throw .outOfMemory(source: source)
        }
        return reader
    }

    /// Turns a CPNG status into the typed error, with libpng's message as one line.
    private static func error(_ status: cpng_status, reader: OpaquePointer, source: String, maxSide: Int) -> RenderError {
        let reason = String(cString: cpng_reader_message(reader))
            .split(whereSeparator: \.isNewline).joined(separator: " ")
        switch status {
        case CPNG_ERR_NOT_FOUND: return .inputNotFound(path: source)
        case CPNG_ERR_OPEN: return .cannotOpenInput(path: source, reason: reason)
        case CPNG_ERR_READ: return .inputReadFailed(source: source, reason: reason)
        case CPNG_ERR_NOT_PNG: return .notPNG(source: source)
        case CPNG_ERR_NO_MEMORY: return .outOfMemory(source: source)
        case CPNG_ERR_TOO_LARGE:
            var raw = cpng_header()
            cpng_reader_get_header(reader, &raw)
            return .imageSideTooLarge(source: source, width: Int(raw.width), height: Int(raw.height), maxSide: maxSide)
        default: return .corruptPNG(source: source, reason: reason.isEmpty ? "unreadable PNG data" : reason)
        }
    }
}
