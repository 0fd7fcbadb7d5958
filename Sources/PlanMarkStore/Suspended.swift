/// A value handed from a suspended task to the thread that works for it and back: a closure given to a database queue,
/// or the result it made.
///
/// `@unchecked Sendable` because of how it is used, not what it holds: the value crosses to another thread while the
/// task that owns it (and whatever the value captures) is suspended, awaiting that very work, and the other side
/// lets go of it before the task resumes. Nothing else touches it meanwhile.
package struct Suspended<Value>: @unchecked Sendable {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}
