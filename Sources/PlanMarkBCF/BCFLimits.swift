/// What a BCF file may be before PlanMark reads it, checked before anything is inflated or parsed.
public struct BCFLimits: Hashable, Sendable {
    /// The file's size.
    public var fileBytes: Int
    /// Entries in the zip.
    public var entries: Int
    /// One entry's size once inflated, as its header declares it and as counted while inflating.
    public var entryBytes: Int
    /// Every entry read, inflated, together.
    public var totalBytes: Int
    /// Inflated size over compressed size of one entry (a deflate stream can reach about 1,032; XML and PNG stay
    /// far below 100).
    public var ratio: Int

    /// 256 MiB files, 100,000 entries, 64 MiB an entry, 1 GiB in all, ratio 200.
    public init(fileBytes: Int = 256 << 20, entries: Int = 100_000, entryBytes: Int = 64 << 20, totalBytes: Int = 1 << 30, ratio: Int = 200) {
        self.fileBytes = fileBytes
        self.entries = entries
        self.entryBytes = entryBytes
        self.totalBytes = totalBytes
        self.ratio = ratio
    }
}
