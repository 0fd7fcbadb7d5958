import PlanMarkGeometry

/// The result of an import.
public struct ImportOutcome: Hashable, Sendable {
    /// Rows read.
    public var total: Int
    /// Markers stored.
    public var stored: Int
    /// The numbers given to the stored markers (consecutive).
    public var numbers: Range<Int>
    /// Rows refused by validation, in file order. Without `skipInvalid`, any of these means nothing was stored.
    public var rejected: [RejectedRow]
    /// Rows skipped because their uuid is stored already (offline capture synced twice).
    public var alreadyStored: Int

    /// Creates an outcome.
    public init(total: Int, stored: Int, numbers: Range<Int>, rejected: [RejectedRow], alreadyStored: Int = 0) {
        self.total = total
        self.stored = stored
        self.numbers = numbers
        self.rejected = rejected
        self.alreadyStored = alreadyStored
    }
}
