import ArgumentParser
import Foundation

// Parsing and errors are handled here rather than by `Synctables.main()` so that every failure, usage
// errors included, is one line on stderr with a documented exit code (see ExitStatus).

let exitStatus = await Synctables.runAndReport(CommandLine.arguments.dropFirst().map { $0 })
exit(exitStatus)
