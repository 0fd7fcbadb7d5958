/// The PlanMark version: `planmark --version`, `planmark-server --version` and the OpenAPI document's
/// `info.version` all print this one constant.
public enum PlanMarkVersion {
    /// `MAJOR.MINOR.PATCH`.
    public static let current = "1.1.0"
}
