import Foundation

/// A link or image in a Markdown file: `[text](target)` or `![alt](target)`.
struct MarkdownLink: Equatable, Sendable {
    /// The 1-based line the link is on.
    var line: Int
    /// The target as written, without angle brackets or a title.
    var target: String
}

/// What the documentation tests read in Markdown: links outside code, and the anchors GitHub gives headings.
enum MarkdownLinks {
    /// Every inline link and image outside fenced code blocks and inline code spans, in order.
    /// - Complexity: O(length of the text).
    static func links(in text: String) -> [MarkdownLink] {
        var found: [MarkdownLink] = []
        for (index, line) in proseLines(of: text) {
            let chars = Array(withoutCodeSpans(line))
            var i = 0
            while i + 1 < chars.count {
                guard chars[i] == "]", chars[i + 1] == "(" else { i += 1; continue }
                // The target runs to the `)` that balances the `(`; `<...>` holds a target with spaces.
                var j = i + 2
                var depth = 1
                var target: [Character] = []
                if j < chars.count, chars[j] == "<" {
                    j += 1
                    while j < chars.count, chars[j] != ">" { target.append(chars[j]); j += 1 }
                    while j < chars.count, chars[j] != ")" { j += 1 }
                } else {
                    while j < chars.count {
                        if chars[j] == "\\", j + 1 < chars.count { target.append(chars[j + 1]); j += 2; continue }
                        if chars[j] == "(" { depth += 1 }
                        if chars[j] == ")" { depth -= 1; if depth == 0 { break } }
                        target.append(chars[j])
                        j += 1
                    }
                    // A title (`[a](b "title")`) follows the target after white space.
                    if let space = target.firstIndex(where: { $0 == " " || $0 == "\t" }) { target = Array(target[..<space]) }
                }
                if j < chars.count { found.append(MarkdownLink(line: index, target: String(target))) }
                i = max(j, i + 2)
            }
        }
        return found
    }

    /// The anchors GitHub makes for the file's ATX headings (`# Heading`), duplicates numbered `-1`, `-2`, ...
    /// - Complexity: O(length of the text).
    static func anchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        var seen: [String: Int] = [:]
        for (_, line) in proseLines(of: text) {
            guard let heading = headingText(line) else { continue }
            let base = slug(heading)
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// GitHub's anchor for a heading's text: the rendered text (code marks and link targets dropped), lower case,
    /// without punctuation other than `-` and `_`, each space a `-`.
    /// - Complexity: O(length of the heading).
    static func slug(_ heading: String) -> String {
        var rendered = ""
        let chars = Array(heading)
        var i = 0
        while i < chars.count {
            // `[text](target)` renders as its text.
            if chars[i] == "]", i + 1 < chars.count, chars[i + 1] == "(", let close = chars[(i + 2)...].firstIndex(of: ")") {
                i = close + 1
                continue
            }
            rendered.append(chars[i])
            i += 1
        }
        var result = ""
        for character in rendered.lowercased() {
            if character == " " {
                result.append("-")
            } else if character == "-" || character == "_" || character.isLetter || character.isNumber {
                result.append(character)
            }
        }
        return result
    }

    /// The text of an ATX heading line (up to 3 spaces, 1 to 6 `#`, a space), without its closing `#`s; nil for
    /// any other line.
    static func headingText(_ line: String) -> String? {
        var rest = Substring(line)
        var indent = 0
        while rest.first == " ", indent < 4 { rest = rest.dropFirst(); indent += 1 }
        guard indent < 4 else { return nil }
        let hashes = rest.prefix(while: { $0 == "#" }).count
        guard (1...6).contains(hashes) else { return nil }
        rest = rest.dropFirst(hashes)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var text = rest.trimmingCharacters(in: .whitespaces)
        // A closing sequence of `#`s preceded by a space is not part of the heading.
        let trailing = text.reversed().prefix(while: { $0 == "#" }).count
        if trailing > 0 {
            let before = text.dropLast(trailing)
            if before.isEmpty || before.last == " " { text = before.trimmingCharacters(in: .whitespaces) }
        }
        return text
    }

    /// The lines outside fenced code blocks (```` ``` ```` or `~~~`, up to 3 spaces in), with their 1-based numbers.
    /// - Complexity: O(length of the text).
    static func proseLines(of text: String) -> [(Int, String)] {
        var lines: [(Int, String)] = []
        var fence: (character: Character, length: Int)?
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            let trimmed = line.drop(while: { $0 == " " })
            let indent = line.count - trimmed.count
            if indent < 4, let first = trimmed.first, first == "`" || first == "~" {
                let run = trimmed.prefix(while: { $0 == first }).count
                if run >= 3 {
                    if let open = fence {
                        if first == open.character, run >= open.length,
                           trimmed.dropFirst(run).allSatisfy({ $0 == " " || $0 == "\t" }) {
                            fence = nil
                        }
                        continue
                    } else if !(first == "`" && trimmed.dropFirst(run).contains("`")) {
                        fence = (first, run)
                        continue
                    }
                }
            }
            if fence == nil { lines.append((offset + 1, line)) }
        }
        return lines
    }

    /// `line` with the content of every inline code span (a run of backticks to the next run of the same length)
    /// blanked out; a run with no partner stays as it is.
    /// - Complexity: O(length of the line) for lines without unmatched runs, O(n^2) at worst.
    static func withoutCodeSpans(_ line: String) -> String {
        let chars = Array(line)
        var out: [Character] = []
        var i = 0
        while i < chars.count {
            guard chars[i] == "`" else { out.append(chars[i]); i += 1; continue }
            let run = chars[i...].prefix(while: { $0 == "`" }).count
            var j = i + run
            var close: Int?
            while j < chars.count {
                if chars[j] == "`" {
                    let other = chars[j...].prefix(while: { $0 == "`" }).count
                    if other == run { close = j; break }
                    j += other
                } else {
                    j += 1
                }
            }
            if let close {
                out.append(contentsOf: repeatElement(" ", count: close + run - i))
                i = close + run
            } else {
                out.append(contentsOf: chars[i..<(i + run)])
                i += run
            }
        }
        return String(out)
    }
}

/// Checks the links of Markdown files against a file system: the target exists (relative to the linking file) and
/// its `#fragment` is a heading anchor there. Links with a scheme (`https:`, `mailto:`, ...) are not checked.
struct LinkChecker: Sendable {
    /// The text of the file at an absolute path, nil when there is none.
    var read: @Sendable (String) -> String?
    /// Whether a file or folder exists at an absolute path.
    var exists: @Sendable (String) -> Bool

    /// The checker over the real file system.
    static let fileSystem = LinkChecker(
        read: { try? String(contentsOfFile: $0, encoding: .utf8) },
        exists: { FileManager.default.fileExists(atPath: $0) }
    )

    /// One line for each broken link in `text`, the Markdown file at `path`: `NAME:LINE: what`, NAME being `path`
    /// relative to `root`.
    /// - Complexity: O(length of the text + length of every file it links to with a fragment).
    func problems(inFile path: String, text: String, root: String) -> [String] {
        let name = path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
        let folder = (path as NSString).deletingLastPathComponent
        var problems: [String] = []
        for link in MarkdownLinks.links(in: text) {
            let target = link.target
            if target.isEmpty { problems.append("\(name):\(link.line): empty link target"); continue }
            if Self.hasScheme(target) { continue }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let pathPart = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let fragment = parts.count > 1 ? String(parts[1]) : nil
            let resolved = pathPart.isEmpty ? path : Self.normalise(pathPart.hasPrefix("/") ? root + pathPart : folder + "/" + pathPart)
            if !pathPart.isEmpty, !exists(resolved) {
                problems.append("\(name):\(link.line): \(target): no such file \(Self.relative(resolved, to: root))")
                continue
            }
            guard let fragment, !fragment.isEmpty else { continue }
            let decoded = fragment.removingPercentEncoding ?? fragment
            if resolved.lowercased().hasSuffix(".md") {
                let anchors = MarkdownLinks.anchors(in: read(resolved) ?? "")
                if !anchors.contains(decoded) {
                    problems.append("\(name):\(link.line): \(target): no heading #\(decoded) in \(Self.relative(resolved, to: root))")
                }
            } else if decoded.range(of: #"^L[0-9]+(-L[0-9]+)?$"#, options: .regularExpression) == nil {
                problems.append("\(name):\(link.line): \(target): #\(decoded) in a file that is not Markdown")
            }
        }
        return problems
    }

    /// Whether `target` starts with a URL scheme (`https:`, `mailto:`): an outside link, not checked.
    static func hasScheme(_ target: String) -> Bool {
        target.range(of: #"^[A-Za-z][A-Za-z0-9+.-]*:"#, options: .regularExpression) != nil
    }

    /// `path` without `.` and `..` components.
    static func normalise(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", !parts.isEmpty { parts.removeLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` relative to `root` when it is inside it.
    static func relative(_ path: String, to root: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }
}
