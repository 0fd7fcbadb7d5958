import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

extension PlanMark {
    /// Runs the command line, first refusing an argument that is not UTF-8 (Swift would read it with
    /// U+FFFD in place of the bad bytes, and a name or note would be stored as something the user never
    /// typed), then moving a `--store PATH` given before the command's name to just after it, so
    /// `planmark --store S mark ...` and `planmark mark --store S ...` mean the same.
    static func main() {
        for index in 1..<max(1, Int(CommandLine.argc)) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            if String(validatingCString: argument) == nil {
                printError("planmark: argument \(index): invalid UTF-8")
                Glibc.exit(Exit.usage)
            }
        }
        Self.main(StoreArguments.rewrite(Array(CommandLine.arguments.dropFirst()), root: PlanMark.self))
    }
}

/// Moves a global `--store` option after the subcommand path.
enum StoreArguments {
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
