import SyncTablesServer

extension SyncServerConfiguration {
    /// Whether the server serves the test controls: the fault-injection, request-log and seeding API, in
    /// process (`SyncServer.testControls`) and over HTTP under `/__test`. Never enable this in production:
    /// anyone who can reach the server can rewrite data.
    ///
    /// ```swift
    /// var configuration = SyncServerConfiguration(storage: .inMemory)
    /// configuration.enableTestControls = true
    /// ```
    public var enableTestControls: Bool {
        get { middleware.contains { $0.name == TestControlsMiddleware.name } }
        set {
            middleware.removeAll { $0.name == TestControlsMiddleware.name }
            guard newValue else { return }
            // Installed first: the controls see each request before anything else the server runs on it.
            middleware.insert(
                ServerMiddlewareInstaller(name: TestControlsMiddleware.name) { tables in
                    TestControlsMiddleware(controls: TestControls(tables: tables))
                },
                at: 0)
        }
    }

    /// This configuration with the test controls enabled (see `enableTestControls`).
    ///
    /// ```swift
    /// let server = try await SyncServer(configuration: SyncServerConfiguration(storage: .inMemory).withTestControls())
    /// ```
    public func withTestControls() -> SyncServerConfiguration {
        var configuration = self
        configuration.enableTestControls = true
        return configuration
    }
}

extension SyncServer {
    /// The fault-injection, request-log and seeding controls, or `nil` unless the configuration enabled them
    /// (`SyncServerConfiguration.enableTestControls`).
    public var testControls: TestControls? {
        middleware.lazy.compactMap { ($0 as? TestControlsMiddleware)?.controls }.first
    }
}
