import PlanMarkFormats
import PlanMarkGeometry
import PlanMarkStore

/// A drawing's revisions as JSON, the one shape of `planmark drawing show --format json`'s `revisions` and the
/// service's `GET /drawings/{name}/revisions`.
public enum RevisionJSON {
    /// `{"number","sha256","width","height","createdAt","author","transform":{"a".."f"}|null,"maxResidual"|null}`,
    /// and `"pdf":{"page":P,"dpi":D}` last when the revision's image is a page of a PDF (no `pdf` key for a PNG);
    /// `image` is where the caller's user gets the revision's image (the CLI: the file it was added from; the
    /// service leaves it out, it never names a server file).
    /// - Complexity: O(length of the text).
    public static func object(_ revision: Revision, image: String?) -> String {
        var out = ReportBuffer(capacity: 256)
        append(revision, image: image, to: &out)
        return out.text
    }

    /// `[OBJECT,...]`, oldest first.
    /// - Complexity: O(length of the text).
    public static func array(_ revisions: [Revision], image: (Revision) -> String?) -> String {
        var out = ReportBuffer(capacity: 16 + 256 * revisions.count)
        out.append("[")
        for (index, revision) in revisions.enumerated() {
            if index > 0 { out.append(",") }
            append(revision, image: image(revision), to: &out)
        }
        out.append("]")
        return out.text
    }

    static func append(_ r: Revision, image: String?, to out: inout ReportBuffer) {
        out.append("{\"number\":"); out.appendInteger(Int64(r.number))
        if let image { out.append(",\"image\":"); out.appendJSONString(image) }
        out.append(",\"sha256\":"); out.appendJSONString(r.imageSHA256)
        out.append(",\"width\":"); out.appendInteger(Int64(r.width))
        out.append(",\"height\":"); out.appendInteger(Int64(r.height))
        out.append(",\"createdAt\":"); out.appendJSONString(r.createdAt.text)
        out.append(",\"author\":")
        if let author = r.author { out.appendJSONString(author) } else { out.append("null") }
        out.append(",\"transform\":")
        if let t = r.transform {
            out.append("{\"a\":"); out.append(JSONNumber.text(t.a))
            out.append(",\"b\":"); out.append(JSONNumber.text(t.b))
            out.append(",\"c\":"); out.append(JSONNumber.text(t.c))
            out.append(",\"d\":"); out.append(JSONNumber.text(t.d))
            out.append(",\"e\":"); out.append(JSONNumber.text(t.e))
            out.append(",\"f\":"); out.append(JSONNumber.text(t.f))
            out.append("}")
        } else {
            out.append("null")
        }
        out.append(",\"maxResidual\":")
        if let residual = r.maxResidual { out.append(JSONNumber.text(residual)) } else { out.append("null") }
        if let pdf = r.pdf {
            out.append(",\"pdf\":"); PDFSourceJSON.append(pdf, to: &out)
        }
        out.append("}")
    }
}
