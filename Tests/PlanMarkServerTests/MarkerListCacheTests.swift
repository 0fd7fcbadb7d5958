import NIOCore
import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// `MarkerListCache`: bounded by bytes, least recently used first out, a body over a quarter of the bound never kept.
@Suite struct MarkerListCacheTests {
    static func key(_ history: Int64, _ query: String = "plan") -> MarkerListCache.Key {
        MarkerListCache.Key(version: MarkersVersion(drawingID: 1, latestHistoryID: history, regionsRevision: 0), query: query)
    }

    static func body(_ size: Int, _ byte: UInt8) -> ByteBuffer { ByteBuffer(bytes: [UInt8](repeating: byte, count: size)) }

    @Test func keepsBodiesByVersionAndQuery() {
        let cache = MarkerListCache(limitBytes: 1000)
        cache.keep(Self.body(10, 1), for: Self.key(1))
        #expect(cache.body(for: Self.key(1)) == Self.body(10, 1))
        #expect(cache.body(for: Self.key(2)) == nil)
        #expect(cache.body(for: Self.key(1, "plan\nstatus=open")) == nil)
        cache.keep(Self.body(20, 2), for: Self.key(1))
        #expect(cache.body(for: Self.key(1)) == Self.body(20, 2))
        #expect(cache.usage.entries == 1 && cache.usage.bytes == 20)
    }

    @Test func dropsTheLeastRecentlyUsedBeyondTheBound() {
        let cache = MarkerListCache(limitBytes: 1000)
        for history in 1...4 { cache.keep(Self.body(250, UInt8(history)), for: Self.key(Int64(history))) }
        #expect(cache.usage.bytes == 1000)
        _ = cache.body(for: Self.key(1))                       // 1 is now the most recently used; 2 the least
        cache.keep(Self.body(100, 5), for: Self.key(5))        // 1,100 bytes: 2 goes (850 left)
        #expect(cache.body(for: Self.key(2)) == nil)
        for history in [1, 3, 4, 5] { #expect(cache.body(for: Self.key(Int64(history))) != nil, "\(history)") }
        #expect(cache.usage.entries == 4 && cache.usage.bytes == 850)
    }

    @Test func aBodyOverAQuarterOfTheBoundIsNotKept() {
        let cache = MarkerListCache(limitBytes: 1000)
        cache.keep(Self.body(250, 1), for: Self.key(1))
        cache.keep(Self.body(251, 2), for: Self.key(2))
        #expect(cache.body(for: Self.key(1)) != nil)
        #expect(cache.body(for: Self.key(2)) == nil)
        #expect(cache.usage.bytes == 250)
    }

    @Test func aBoundOfZeroKeepsNothingAndANegativeOneIsRefused() throws {
        let cache = MarkerListCache(limitBytes: 0)
        cache.keep(Self.body(1, 1), for: Self.key(1))
        #expect(cache.body(for: Self.key(1)) == nil)
        #expect(throws: ServerConfigurationError.invalidLimit(option: "--marker-list-cache-size", -1)) {
            try ServerConfiguration(markerListCacheBytes: -1).validate()
        }
        try ServerConfiguration(markerListCacheBytes: 0).validate()
    }
}
