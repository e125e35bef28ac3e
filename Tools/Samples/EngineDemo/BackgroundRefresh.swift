// How an iOS app runs the engine from a background refresh task (compiled on iOS only; the DocC article
// "The sync engine" shows the same code).
#if os(iOS)
    import BackgroundTasks
    import Foundation
    import SyncTables

    enum BackgroundRefresh {
        static let identifier = "com.example.app.refresh"  // also in Info.plist, BGTaskSchedulerPermittedIdentifiers

        /// Call once at launch, before the app finishes launching.
        static func register(engine: SyncEngine) {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                schedule()
                let work = Task {
                    // The system gives about 30 seconds; stay well inside.
                    let report = await engine.performBackgroundSync(deadline: Date().addingTimeInterval(25))
                    task.setTaskCompleted(success: report.outcome == .completed)
                }
                task.expirationHandler = { work.cancel() }
            }
        }

        /// Asks for the next refresh (call it when the app goes to the background, too).
        static func schedule() {
            let request = BGAppRefreshTaskRequest(identifier: identifier)
            request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
            try? BGTaskScheduler.shared.submit(request)
        }
    }
#endif
