import PlanMarkFormats

/// A new token: the secret, shown once, and what the store keeps of it.
public struct NewToken: Sendable {
    /// The token the user sends (`Authorization: Bearer ...`): `pmk_` and 43 characters of base64url, 32 random bytes.
    public var secret: String
    /// The stored record.
    public var token: UserToken
}
