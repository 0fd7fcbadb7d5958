import ArgumentParser
import PlanMarkStore

/// Reports a store error on stderr (one line) and returns its exit code:
/// 1 refused or invalid, 64 usage, 65 bad input data, 66 missing input / unknown drawing or marker / no store,
/// 74 store I/O.
func fail(_ error: StoreError) -> ExitCode {
    switch error {
    case .input(let formatError):
        return fail(formatError)
    default:
        printError("planmark: " + error.description)
    }
    switch error {
    case .missingStore, .unknownDrawing, .unknownMarker, .missingImage:
        return ExitCode(Exit.noInput)
    case .duplicateDrawing, .invalidMarker, .refused, .newerSchema:
        return ExitCode(Exit.invalid)
    case .notPNG, .invalidText, .imageChanged:
        return ExitCode(Exit.dataError)
    case .invalidArgument:
        return ExitCode(Exit.usage)
    case .io, .busy:
        return ExitCode(Exit.ioError)
    case .input:
        return ExitCode(Exit.dataError)
    }
}

/// Runs `body`, turning store and output errors into exit codes.
func storeCommand<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as StoreError {
        throw fail(error)
    } catch let error as OutputError {
        printError(error.description)
        throw ExitCode(Exit.ioError)
    }
}
