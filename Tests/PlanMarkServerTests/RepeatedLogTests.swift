import Foundation
import Logging
import PlanMarkStore
import Testing
@testable import PlanMarkServer

/// Repeated identical errors are logged once per interval with a count (a database outage used to write one error line
/// per request: 498 MB in 15 minutes for one retrying client).
struct RepeatedLogTests {
    @Test func aLineRepeatedWithinTheIntervalIsCountedThenSummarisedOnce() async {
        var filter = RepeatedLogFilter(interval: .seconds(10))
        let start = ContinuousClock.now
        #expect(filter.admit("down", at: start) == ["down"])
        for k in 1...999 {
            #expect(filter.admit("down", at: start + .milliseconds(k * 9)).isEmpty)
        }
        // Nothing more to say within the interval.
        #expect(filter.due(at: start + .milliseconds(9_999)).isEmpty)
        // Once it is over: one summary with the count, then nothing.
        #expect(filter.due(at: start + .seconds(10)) == ["down (repeated 999 times in 10 s)"])
        #expect(filter.due(at: start + .seconds(30)).isEmpty)
        // The next occurrence starts a new interval: written again.
        #expect(filter.admit("down", at: start + .seconds(31)) == ["down"])
        #expect(filter.admit("down", at: start + .seconds(32)).isEmpty)
        // A summary due is written before the line that finds it due.
        #expect(filter.admit("other", at: start + .seconds(41)) == ["down (repeated 1 time in 10 s)", "other"])
    }

    @Test func aLineNotRepeatedHasNoSummaryAndDifferentLinesAreCountedApart() async {
        var filter = RepeatedLogFilter(interval: .seconds(10))
        let start = ContinuousClock.now
        #expect(filter.admit("a", at: start) == ["a"])
        #expect(filter.admit("b", at: start + .seconds(1)) == ["b"])
        #expect(filter.admit("b", at: start + .seconds(2)).isEmpty)
        #expect(filter.admit("GET /x: b", key: "b", at: start + .seconds(3)).isEmpty)
        #expect(filter.due(at: start + .seconds(10)).isEmpty)
        #expect(filter.due(at: start + .seconds(11)) == ["b (repeated 2 times in 10 s)"])
        #expect(filter.admit("a", at: start + .seconds(12)) == ["a"])
    }

    /// What the error middleware does with 200 identical 503s: one error line.
    @Test func twoHundredIdenticalErrorsAreOneLine() async throws {
        let recorder = LogRecorder()
        let limiter = RepeatedLogLimiter(interval: .seconds(3600))
        for _ in 0..<200 {
            limiter.log("GET /drawings: store-unavailable: db: gone", key: "store-unavailable: db: gone", level: .error,
                        to: recorder.logger())
        }
        #expect(recorder.all == ["GET /drawings: store-unavailable: db: gone"])
    }

    @Test func aReplacedStoreIs503StoreReplacedAndAnOutage503StoreUnavailable() async {
        let replaced = APIError(StoreError.storeReplaced(path: "/srv/secret-folder/planmark.sqlite"))
        #expect(replaced.status.code == 503)
        #expect(replaced.code == "store-replaced")
        #expect(!replaced.jsonBody.contains("secret-folder"))
        let unavailable = APIError(StoreError.unavailable("postgres://ana@db/plans: the database has been unreachable for a while"))
        #expect(unavailable.status.code == 503)
        #expect(unavailable.code == "store-unavailable")
    }
}
