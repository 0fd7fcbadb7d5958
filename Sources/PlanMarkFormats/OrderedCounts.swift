/// Counts under names, written as an object in the order given (a dictionary's members would come in byte order):
/// a summary's statuses in workflow order.
public struct OrderedCounts: Encodable, Sendable, Hashable {
    /// The names and their counts, in order.
    public var pairs: [(String, Int)]

    /// The counts `pairs`, in their order.
    public init(_ pairs: [(String, Int)]) { self.pairs = pairs }

    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: JSONMemberName.self)
        for (name, count) in pairs { try object.encode(count, forKey: JSONMemberName(name)) }
    }

    public static func == (lhs: OrderedCounts, rhs: OrderedCounts) -> Bool { lhs.pairs.elementsEqual(rhs.pairs, by: ==) }

    public func hash(into hasher: inout Hasher) {
        for (name, count) in pairs { hasher.combine(name); hasher.combine(count) }
    }
}
