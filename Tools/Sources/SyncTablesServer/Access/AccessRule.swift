/// Who may read and write a declared table's rows (``TableDeclaration/access``).
///
/// Every rule needs a verified caller: a server with declared tables answers 401 to requests without a token
/// that proves one (see <doc:Identity>). Rows outside the caller's scope behave as if they did not exist:
/// reads skip them, writes answer 404, and an insert whose id such a row holds answers 409 without it.
public enum AccessRule: Sendable, Hashable {
    /// Any verified caller reads and writes every row.
    case authenticated
    /// Any verified caller reads every row; nobody writes through the protocol (403).
    case readOnly
    /// Rows belong to the token's subject (`sub`), which the server writes into `column` on insert; a caller
    /// reads and writes only its own rows, and never sets or changes `column` to another value (400).
    case owner(column: String)
    /// Rows belong to everyone whose token carries the same value of the claim `claim` (a team or tenant id),
    /// which the server writes into `column` on insert; a token without the claim gets 403.
    case claim(String, column: String)

    /// The property the server stamps from the token, if the rule has one.
    public var stampedColumn: String? {
        switch self {
        case .authenticated, .readOnly: nil
        case .owner(let column), .claim(_, let column): column
        }
    }
}
