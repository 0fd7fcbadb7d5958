/// How long one test may run before it is taken for hung. A guard, not a speed check: the tests run in parallel and
/// all start at once, so a test's time includes the whole suite's share of the machine; on two loaded cores (a build
/// beside the run) a full run took 29 minutes. Well inside CI's 90 minutes. Each test target that starts servers,
/// processes or databases has `Trait.hangGuard` for it (`.timeLimit(.minutes(HangGuard.minutes))`).
public enum HangGuard {
    /// The limit, in minutes.
    public static let minutes = 45
}
