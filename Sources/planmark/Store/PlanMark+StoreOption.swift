import ArgumentParser
import PlanMarkFormats
import PlanMarkRender
import PlanMarkStore

#if canImport(Glibc)
import Glibc
#endif

extension PlanMark {
    /// Runs the command line, first refusing an argument that is not UTF-8 (Swift would read it with
    /// U+FFFD in place of the bad bytes, and a name or note would be stored as something the user never
    /// typed), then moving a `--store PATH` given before the command's name to just after it, so
    /// `planmark --store S mark ...` and `planmark mark --store S ...` mean the same.
    static func main() async {
        for index in 1..<max(1, Int(CommandLine.argc)) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            if String(validatingCString: argument) == nil {
                printError("planmark: argument \(index): invalid UTF-8")
                Glibc.exit(Exit.usage)
            }
        }
        let arguments = StoreArguments.rewrite(Array(CommandLine.arguments.dropFirst()), root: PlanMark.self)
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            Glibc.exit(report(error, arguments: arguments))
        }
    }

    /// Reports what stopped the command and returns its exit code. Help, `--version` and the like print
    /// as the argument parser prints them (stdout, exit 0); an `ExitCode` was reported where it was
    /// thrown; every other error is one line `planmark: WHERE: what` (`CommandFailure`), the argument
    /// parser's own (and `ValidationError`s) as usage errors of the command, exit 64.
    static func report(_ error: any Error, arguments: [String]) -> Int32 {
        if let code = error as? ExitCode { return code.rawValue }
        switch error {
        case is CommandFailure, is FormatError, is StoreError, is RenderError, is ReviewError, is OutputError:
            return fail(error).rawValue
        default:
            break
        }
        if exitCode(for: error) == .success { exit(withError: error) }
        let command = StoreArguments.commandPath(arguments, root: PlanMark.self)
        let place = command.isEmpty ? "usage" : command.joined(separator: " ")
        var text = String(message(for: error).split(separator: "\n", omittingEmptySubsequences: true).first ?? "bad usage")
        // The parser's sentences start with a capital ("Missing expected argument"); the line's parts do not.
        if let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase == true {
            text = first.lowercased() + text.dropFirst()
        }
        let help = (["planmark"] + command + ["--help"]).joined(separator: " ")
        return fail(CommandFailure(place: place, message: text + " (see '\(help)')", code: Exit.usage)).rawValue
    }
}

/// Moves a global `--store` option after the subcommand path.
enum StoreArguments {
    /// The subcommand names `arguments` start with (`["crs", "to-pixel"]`), after `rewrite`.
    static func commandPath(_ arguments: [String], root: any ParsableCommand.Type) -> [String] {
        var path: [String] = []
        var command: any ParsableCommand.Type = root
        for argument in arguments {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == argument }) else { break }
            path.append(argument)
            command = next
        }
        return path
    }

    /// `arguments` with any `--store X` / `--store=X` that appears among the leading subcommand names moved
    /// to just after the last of them. Anything else is left as is.
    static func rewrite(_ arguments: [String], root: any ParsableCommand.Type) -> [String] {
        var rest = arguments
        var path: [String] = []
        var moved: [String] = []
        var command: any ParsableCommand.Type = root
        while let first = rest.first {
            if first == "--store" && rest.count >= 2 {
                moved += [rest[0], rest[1]]
                rest.removeFirst(2)
                continue
            }
            if first.hasPrefix("--store=") {
                moved.append(first)
                rest.removeFirst()
                continue
            }
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == first }) else { break }
            path.append(first)
            rest.removeFirst()
            command = next
        }
        return path + moved + rest
    }
}
