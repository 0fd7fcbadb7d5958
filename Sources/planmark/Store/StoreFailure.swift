import ArgumentParser
import PlanMarkStore

/// Runs `body`; a store, input, render or output error is reported on stderr (one line, see
/// `CommandFailure`) and becomes its exit code.
func storeCommand<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ExitCode {
        throw error
    } catch {
        throw fail(error)
    }
}
