import Hummingbird

/// The status a request is answered with, as the middlewares that log and count requests see it.
enum RespondedStatus {
    /// Runs `next` and calls `ended` with the status of its answer: the response's, an `HTTPResponseError`'s, or 500
    /// for any other error (what the error middleware then answers); the answer or the error is passed on as it is.
    static func next<Context: RequestContext>(_ request: Request, _ context: Context,
                                              _ next: (Request, Context) async throws -> Response,
                                              ended: (Int) -> Void) async throws -> Response {
        do {
            let response = try await next(request, context)
            ended(response.status.code)
            return response
        } catch let error as any HTTPResponseError {
            ended(error.status.code)
            throw error
        } catch {
            ended(500)
            throw error
        }
    }
}
