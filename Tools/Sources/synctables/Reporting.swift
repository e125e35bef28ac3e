@_spi(SyncTablesTools) import SyncTables

/// Runs a command's body and turns whatever it throws into a ``CommandFailure``; with `--json` the
/// failure is also written to stdout as `{"error": {"exitCode", "kind", "message"}}`.
func reportingFailures(_ options: StoreOptions, _ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        var failure = CommandFailure(classifying: error)
        if options.json, !failure.reportedAsJSON {
            let object: JSONObject = [
                "error": .object([
                    "exitCode": .integer(Int64(failure.status.rawValue)),
                    "kind": .string(failure.status.name),
                    "message": .string(failure.message),
                ])
            ]
            Output.writeLine(object.jsonString, to: .standardOutput)
            failure.reportedAsJSON = true
        }
        throw failure
    }
}
