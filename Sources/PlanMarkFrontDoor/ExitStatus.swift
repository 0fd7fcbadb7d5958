/// The exit statuses of both front doors (`planmark` and `planmark-server`), sysexits' numbers: the one table of them.
public enum ExitStatus {
    /// Done.
    public static let ok: Int32 = 0
    /// Read but invalid, or refused.
    public static let invalid: Int32 = 1
    /// Bad usage: an unknown option, an argument out of range.
    public static let usage: Int32 = 64
    /// Bad input data.
    public static let dataError: Int32 = 65
    /// Missing input: a file, the store, a drawing, a marker.
    public static let noInput: Int32 = 66
    /// A program it runs is missing (`planmark-server`, `planmark-pdf`).
    public static let unavailable: Int32 = 69
    /// The output cannot be created.
    public static let cannotCreate: Int32 = 73
    /// An I/O error: reading, writing, the store.
    public static let ioError: Int32 = 74
}
