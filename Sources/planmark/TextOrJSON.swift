import ArgumentParser

/// What most commands print: lines for people (`text`, the default) or one JSON document (`json`). One type for every
/// `--format text|json` option, so the words and their help are the same everywhere.
enum TextOrJSON: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
