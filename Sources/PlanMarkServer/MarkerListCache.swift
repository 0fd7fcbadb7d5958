import NIOCore
import PlanMarkStore
import Synchronization

/// The bodies of recent `GET /drawings/{name}/markers` answers, by what they were made from: the drawing's
/// `MarkersVersion` and the request's query (the day included, which decides `overdue`).
///
/// The version is the one the answer's entity tag names, read from the store for every request, so an entry is used
/// only while the drawing's markers, regions and row are what they were when it was made: a change by this server or
/// any other on the same database makes a new version, and the old entry is never asked for again (it ages out). Many
/// phones on one drawing then cost one listing per change, not one per request. Bounded by bytes: least recently used
/// entries go first, and a body larger than a quarter of the bound is not kept.
final class MarkerListCache: Sendable {
    /// What an answer was made from.
    struct Key: Hashable, Sendable {
        /// The drawing's markers version.
        var version: MarkersVersion
        /// The drawing's name, the day and the query parameters, sorted (`PlanMarkRoutes.markers`).
        var query: String
    }

    private struct Entry {
        var body: ByteBuffer
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most bytes of bodies kept.
    let limitBytes: Int
    private let state = Mutex(State())

    /// A cache keeping at most `limitBytes` (0: none; `ServerConfiguration.markerListCacheBytes`, 64 MiB by default,
    /// about 130 listings of 10,000 markers).
    init(limitBytes: Int) {
        self.limitBytes = limitBytes
    }

    /// The body kept for `key`, or nil.
    /// - Complexity: O(1).
    func body(for key: Key) -> ByteBuffer? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.body
        }
    }

    /// Keeps `body` for `key`, dropping the least recently used entries beyond the bound.
    /// - Complexity: O(e) for the e entries kept, when one has to go (e is at most a few hundred).
    func keep(_ body: ByteBuffer, for key: Key) {
        let size = body.readableBytes
        guard size > 0, size <= limitBytes / 4 else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries.updateValue(Entry(body: body, lastUse: state.clock), forKey: key) {
                state.bytes -= old.body.readableBytes
            }
            state.bytes += size
            while state.bytes > limitBytes, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.bytes -= oldest.value.body.readableBytes
                state.entries[oldest.key] = nil
            }
        }
    }

    /// How many bodies and bytes are kept.
    var usage: (entries: Int, bytes: Int) {
        state.withLock { ($0.entries.count, $0.bytes) }
    }
}
