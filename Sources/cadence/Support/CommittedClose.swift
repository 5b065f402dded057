//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence

/// Closing a store after a command changed it. The change is durable once it is in the store's
/// write-ahead log; closing then moves it into chunk files. When only that second step fails (a
/// full disk, a read-only directory), the change is kept, and the command says so: its output
/// stands, the failure goes to standard error, and the exit status is ``exitStatus``, not 1.
enum CommittedClose {
    /// The exit status of a command whose change was saved but whose store could not be tidied
    /// into chunk files (EX_TEMPFAIL: running any writing command later finishes the job).
    static let exitStatus: Int32 = 75

    /// The help text that explains the exit statuses of a command that changes the store.
    static let help = """
        Exit status: 0 when done; 1 when the command failed; 75 when the change is saved (in the \
        store's write-ahead log, so it survives) but moving it into chunk files afterwards failed, \
        which the next command that opens the store for writing finishes.
        """

    /// Closes `store`; returns the failure of the flush that closing runs, if any, when what the
    /// command wrote reached the log.
    ///
    /// A store whose log append or `fsync` failed refuses to flush: that write's failure is the
    /// command's own (reported where it happened), and its change may not be in the log, so it
    /// is not returned here to be announced as saved.
    static func close(_ store: HealthStore) -> CadenceError? {
        do {
            try store.close()
            return nil
        } catch let error as CadenceError where error.code == .closed {
            return nil
        } catch let error as CadenceError {
            return error
        } catch {
            return CadenceError(.io, "\(error)", path: store.path)
        }
    }

    /// Reports a flush failure after `change` (a phrase such as "the deletion") was saved, and
    /// exits with ``exitStatus``.
    static func report(_ failure: CadenceError, after change: String) -> ExitCode {
        StandardStreams.writeError(
            "Error: \(change) is saved in the store's log, but moving it into chunk files failed "
            + "(\(failure.description)); the next command that opens the store for writing finishes it.")
        return ExitCode(exitStatus)
    }
}
