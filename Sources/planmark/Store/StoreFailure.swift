import ArgumentParser
import PlanMarkStore

/// Runs `body`; a store, input, render or output error is reported on stderr (one line, see
/// `CommandFailure`) and becomes its exit code.
func storeCommand<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as ExitCode {
        throw error
    } catch {
        throw fail(error)
    }
}
