import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

// TEMPORARY: each helper replaces its group with a real implementation and deletes these lines.
extension PostgresStore {
    public func importMarkers<Source: MarkerRowSource>(into drawing: String, from source: inout Source, skipInvalid: Bool, author: String?) throws(StoreError) -> ImportOutcome { throw .io("not implemented") }
}
