import PlanMarkStore

/// The annotation store as the service uses it: every call runs on a blocking-work thread and store
/// errors become API errors.
///
/// `AnnotationStore` is not declared `Sendable`; the service requires an implementation that is safe
/// to call from several threads at once (SQLiteStore is: its only state is a GRDB `DatabasePool`,
/// which serialises writers and runs readers concurrently; PostgresStore is: a bounded connection pool).
public struct StoreAccess: @unchecked Sendable {
    /// The store.
    let store: any AnnotationStore

    /// Wraps a thread-safe store.
    public init(_ store: any AnnotationStore) { self.store = store }

    /// Runs `body` with the store off the cooperative threads; store errors become API errors.
    func run<T: Sendable>(_ body: @escaping @Sendable (any AnnotationStore) throws(StoreError) -> T) async throws -> T {
        let store = self
        return try await BlockingWork.run { () throws -> T in
            do throws(StoreError) {
                return try body(store.store)
            } catch {
                throw APIError(error)
            }
        }
    }
}
