#if os(Linux)
    import Foundation
    import Glibc
    import Testing

    @testable import SyncTables

    /// Stopping the Linux monitor after its loop ended on its own (a `poll` error it cannot recover from).
    @Suite("Network monitor: netlink loop ending on its own")
    struct NetlinkMonitorStopTests {
        @Test func stopAfterThePollLoopFailedWritesToNoDescriptorWithInjectedPollFailure() async throws {
            // A real poll cannot be made to fail with EINVAL on demand: this one fails at once.
            let monitor = try NetlinkNetworkMonitor(poll: { _, _, _ in
                errno = EINVAL
                return -1
            })
            let worker = monitor.worker
            try await eventually("the loop ends") { worker.loopHasEnded }

            // Were the stop pipe's write end closed by the ended loop, a file opened meanwhile could get its
            // number: put a pipe of ours there, as such a file would, and see whether stop writes into it.
            let number = worker.stopDescriptor
            var ours: [Int32] = [0, 0]
            #expect(pipe(&ours) == 0)
            defer { for descriptor in ours { close(descriptor) } }
            var reused = false
            if fcntl(number, F_GETFD) == -1 {
                #expect(dup2(ours[1], number) == number)
                reused = true
            }

            worker.stop()
            worker.stop()  // a second stop does nothing

            var byte: UInt8 = 0
            var readable = pollfd(fd: ours[0], events: Int16(POLLIN), revents: 0)
            #expect(Glibc.poll(&readable, 1, 0) == 0, "stop wrote a byte to a descriptor it no longer owned")
            #expect(!reused, "the ended loop closed the write end that stop still uses")
            if reused { _ = read(ours[0], &byte, 1) }
        }
    }
#endif
