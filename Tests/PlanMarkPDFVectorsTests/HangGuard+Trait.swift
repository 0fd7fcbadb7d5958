import PlanMarkTestSupport
import Testing

extension Trait where Self == TimeLimitTrait {
    /// A guard against a hung test (`HangGuard`), not a speed check.
    static var hangGuard: Self { .timeLimit(.minutes(HangGuard.minutes)) }
}
