import Hummingbird
import Logging
import PlanMarkStore
import ServiceLifecycle
import Synchronization

/// The server's event streams (`GET /drawings/{name}/events`), fed by one reader of the change feed for the whole
/// server, not one per viewer: the store's watcher (`AnnotationStore.watchChanges`: SQLite's counter read ten times a
/// second, PostgreSQL's `LISTEN`) wakes it when changes may have been committed by any process, it reads them once
/// (`changes(since:)`) and hands each to the streams of its drawing whose viewer may see it. One timer sends every
/// stream a keep-alive comment every 15 s. The same wakes tell the server's own listeners of the drawings' changes
/// (`whenDrawingsChange`: a big sheet added or revised has its tiles made at once).
///
/// Each stream has a queue of `queueLimit` changes; a viewer that falls that far behind is disconnected (its stream
/// ends) and resumes with `Last-Event-ID`, so no viewer holds the server's memory. At most `limit` streams at once;
/// beyond, 503 `too-many-streams`. When the server stops, every stream ends at once (a graceful shutdown does not
/// wait for viewers).
final class ChangeHub: Service, Sendable {
    /// What a stream is given.
    enum Item: Sendable {
        case change(Change)
        case keepAlive
    }

    private struct Subscriber: Sendable {
        let drawingID: Int64
        let visible: @Sendable (Change) -> Bool
        let continuation: AsyncStream<Item>.Continuation
    }

    private struct State: Sendable {
        var cursor: Int64?
        var subscribers: [Int: Subscriber] = [:]
        /// Also how many streams were ever opened: `deliver` adopts a cursor read while no stream was open only if none
        /// opened meanwhile.
        var nextID = 0
        /// The feed's last cursor as the store's watcher last told it, if it knows it.
        var latest: Int64?
        var running = false
        var stopped = false
        /// Where the drawings' news (`whenDrawingsChange`) was last read up to.
        var drawingCursor: Int64?
        /// Who is told of the drawings' changes.
        var drawingListeners: [@Sendable (Change) async -> Void] = []
    }

    let store: StoreAccess
    /// At most this many streams.
    let limit: Int
    /// Changes a stream may lag behind before it is closed.
    let queueLimit: Int
    let logger: Logger
    /// How often streams get a keep-alive comment.
    static let keepAliveInterval: Duration = .seconds(15)
    /// The drawings' news is read at most once in this time, however many commits there were.
    static let drawingNewsInterval: Duration = .seconds(1)

    private let state = Mutex(State())
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let drawingWakes: AsyncStream<Void>
    private let drawingWake: AsyncStream<Void>.Continuation

    init(store: StoreAccess, limit: Int, queueLimit: Int = 1_000, logger: Logger) {
        self.store = store
        self.limit = limit
        self.queueLimit = queueLimit
        self.logger = logger
        // Wakes coalesce: one pending wake is enough, however many commits there were.
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (drawingWakes, drawingWake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// How many streams are open.
    var streamCount: Int { state.withLock { $0.subscribers.count } }

    /// Runs the reader, the watcher and the keep-alive timer until the server stops; then ends every stream.
    func run() async throws {
        state.withLock { $0.running = true }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                // Where the hub starts: changes committed before are streams' replays, not news.
                while !Task.isCancelled {
                    if let cursor = try? await store.run("latestCursor", { store throws(StoreError) in try await store.latestCursor() }) {
                        state.withLock { state in
                            state.cursor = state.cursor ?? cursor
                            state.drawingCursor = state.drawingCursor ?? cursor
                        }
                        break
                    }
                    try? await Task.sleep(for: .seconds(1))
                }
                await store.store.watchChanges { [self] latest in
                    state.withLock { state in
                        // Cursors grow in commit order, and news of commits arrives in that order: the largest is the
                        // latest known. Nil: the watcher lost track.
                        state.latest = latest.map { max(state.latest ?? $0, $0) }
                    }
                    wake.yield()
                    drawingWake.yield()
                }
            }
            group.addTask { [self] in
                for await _ in drawingWakes {
                    while let error = await readDrawingNews() {
                        logger.warning("drawings' news: the change feed could not be read (\(error.message)); trying again in 1 s")
                        do { try await Task.sleep(for: .seconds(1)) } catch { return }
                    }
                    // Commits meanwhile are one pending wake: one read for all of them.
                    do { try await Task.sleep(for: Self.drawingNewsInterval) } catch { return }
                }
            }
            group.addTask { [self] in
                for await _ in wakes {
                    // A read that failed (the store unreachable for a moment) is tried again every second until it
                    // succeeds: the wake that asked for it may be the last for a long while.
                    while let error = await deliver() {
                        logger.warning("event streams: the change feed could not be read (\(error.message)); trying again in 1 s")
                        do { try await Task.sleep(for: .seconds(1)) } catch { return }
                    }
                }
            }
            group.addTask { [self] in
                while !Task.isCancelled {
                    do { try await Task.sleep(for: Self.keepAliveInterval) } catch { return }
                    broadcast { _ in .keepAlive }
                }
            }
            try? await gracefulShutdown()
            stop()
            group.cancelAll()
        }
    }

    /// Ends every stream and refuses new ones.
    func stop() {
        let subscribers = state.withLock { state -> [Subscriber] in
            state.stopped = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.continuation.finish() }
        wake.finish()
        drawingWake.finish()
    }

    /// Calls `listener` with each drawing's change (`ChangeKind.isDrawing`) committed from now on, by any process, in
    /// cursor order, whether or not any stream is open: the server warms the tiles of a sheet added or revised by the CLI
    /// or by another server (`TileEndpoint.warm(after:store:)`). Changes before the hub started are not news.
    func whenDrawingsChange(_ listener: @escaping @Sendable (Change) async -> Void) {
        state.withLock { $0.drawingListeners.append(listener) }
    }

    /// Reads the drawings' changes committed since the last read (`AnnotationStore.drawingChanges`) and hands each to
    /// the listeners; the store's error when a read failed (the next call goes on from what was handed out).
    ///
    /// Why this read and not `deliver`'s: while no stream is open the hub reads no changes (see `deliver`), yet a sheet
    /// added by the CLI must be warmed on a server nobody watches. Reading the whole feed for it would read every marker
    /// commit's changes on every server of the store again; this reads only `feedEvent` after a cursor, which a marker's
    /// commit does not write (but for a removal), and at most once each `drawingNewsInterval` however many commits woke
    /// the hub, and not at all when the watcher says nothing was committed since (PostgreSQL's notifications carry the
    /// feed's end). So a server nobody watches pays at most one small indexed read a second while markers are posted.
    /// - Complexity: O(1) with no listener or nothing committed since; else O(log e + r) (`ChangeFeedSQL.drawingPage`)
    ///   for the r feed events since, and the listeners' work for each drawing's change.
    private func readDrawingNews() async -> APIError? {
        let (start, latest, listeners) = state.withLock { ($0.drawingCursor, $0.latest, $0.drawingListeners) }
        guard var cursor = start, !listeners.isEmpty else { return nil }
        if let latest, latest <= cursor { return nil }
        while true {
            let since = cursor
            let page: ChangePage
            do {
                page = try await store.run("drawingChanges") { store throws(StoreError) in
                    try await store.drawingChanges(since: since, limit: ChangePage.defaultLimit)
                }
            } catch {
                return error
            }
            for change in page.changes {
                for listener in listeners { await listener(change) }
            }
            // Everything up to the end the watcher told of before this read was committed before it: read.
            cursor = page.more ? page.next : max(page.next, latest ?? page.next)
            state.withLock { $0.drawingCursor = cursor }
            if !page.more { return nil }
        }
    }

    /// Reads the changes committed since the last read and hands them out; the store's error when a read failed
    /// (what was handed out stays handed out, and the next call goes on from there).
    ///
    /// While no stream is open the changes are nobody's news: the hub goes on from where the feed ends, as the watcher
    /// told it, or else reads that (one row). A stream opened during that read may need what came before its end, so
    /// then the cursor read is dropped and the changes are read as usual. (Every server of a store is woken by every
    /// commit of any of them; reading each commit's changes on servers nobody watches cost three servers' POSTs a share
    /// of the CPU.)
    /// - Complexity: O(1) while no stream is open; O(k) for k changes, plus O(k * s) for s streams.
    private func deliver() async -> APIError? {
        guard var cursor = state.withLock({ $0.cursor }) else { return nil }
        // No stream open and the watcher knows the feed's end (PostgreSQL's notifications carry it): nothing to read. A
        // stream opened later needs only what is committed after it opened, which comes after that end.
        let adopted = state.withLock { state -> Bool in
            guard state.subscribers.isEmpty, let latest = state.latest else { return false }
            state.cursor = max(state.cursor ?? latest, latest)
            return true
        }
        if adopted { return nil }
        let (idle, opened) = state.withLock { ($0.subscribers.isEmpty, $0.nextID) }
        if idle {
            let latest: Int64
            do {
                latest = try await store.run("latestCursor") { store throws(StoreError) in try await store.latestCursor() }
            } catch {
                return error
            }
            let adopted = state.withLock { state -> Bool in
                guard state.nextID == opened else { return false }
                state.cursor = max(state.cursor ?? latest, latest)
                return true
            }
            if adopted { return nil }
        }
        while true {
            let since = cursor
            let page: ChangePage
            do {
                page = try await store.run("changes") { store throws(StoreError) in
                    try await store.changes(since: since, drawing: nil, limit: ChangePage.defaultLimit)
                }
            } catch {
                return error
            }
            for change in page.changes {
                broadcast { subscriber in
                    subscriber.drawingID == change.drawingID && subscriber.visible(change) ? .change(change) : nil
                }
            }
            cursor = page.next
            state.withLock { $0.cursor = cursor }
            if !page.more { return nil }
        }
    }

    /// Gives each stream what `item` makes for it (nothing for nil); a stream whose queue is full is closed.
    private func broadcast(_ item: (Subscriber) -> Item?) {
        let full = state.withLock { state -> [Subscriber] in
            var full: [Subscriber] = []
            for (id, subscriber) in state.subscribers {
                guard let value = item(subscriber) else { continue }
                if case .dropped = subscriber.continuation.yield(value) {
                    full.append(subscriber)
                    state.subscribers[id] = nil
                }
            }
            return full
        }
        for subscriber in full {
            logger.info("event stream closed: its viewer fell \(queueLimit) changes behind (it resumes with Last-Event-ID)")
            subscriber.continuation.finish()
        }
    }

    /// A new stream of drawing `drawingID`'s changes that `visible` lets through, from now on; 503 when `limit` streams
    /// are open or the server is stopping. While the hub does not run (an application without live events, as
    /// HummingbirdTesting's router client makes), the stream ends at once: a viewer gets its replay only.
    func subscribe(drawingID: Int64, visible: @escaping @Sendable (Change) -> Bool) throws(APIError) -> AsyncStream<Item> {
        let (stream, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingOldest(queueLimit))
        let registered = try state.withLock { state throws(APIError) -> Int? in
            if state.stopped { throw APIError.requestCancelled }
            guard state.running else { return nil }
            guard state.subscribers.count < limit else {
                throw APIError.unavailable(code: "too-many-streams", message: "this server has \(limit) event streams open (--max-streams); retry later",
                                           retryAfter: 5)
            }
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = Subscriber(drawingID: drawingID, visible: visible, continuation: continuation)
            return id
        }
        guard let id = registered else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }
}
