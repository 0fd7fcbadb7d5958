import Foundation
import PlanMarkFormats
import PlanMarkStore

/// Output formats of the team commands' listings.

import ArgumentParser

/// The team commands' JSON: `{"KEY":[...]}` and a line break, each record as its `Encodable` form says (one shape,
/// the service's too).
enum TeamJSON {
    static func list<T: Encodable>(_ key: String, _ values: [T]) throws -> String {
        JSONDocument.line([key: values])
    }
}

extension TextOrJSON {
    /// Writes `values` to stdout: a line each (`line`, tab-separated fields) as text, or `{"KEY":[...]}` as JSON.
    func write<T: Encodable>(_ values: [T], key: String, line: (T) -> String) throws {
        let out = StandardOutput()
        switch self {
        case .text: for value in values { try out.write(line(value) + "\n") }
        case .json: try out.write(try TeamJSON.list(key, values))
        }
        try out.flush()
    }
}

/// `text` as a role, or a usage error naming `place` and the roles there are.
func projectRole(_ text: String, place: String) throws(CommandFailure) -> ProjectRole {
    guard let role = ProjectRole(rawValue: text) else {
        throw CommandFailure(place: place, message: "unknown role \"\(text)\" (expected \(ProjectRole.allCases.map(\.rawValue).joined(separator: ", ")))",
                             code: Exit.usage)
    }
    return role
}
