//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser

/// How a command prints its result: `table` for people, `csv` and `json` for programs.
///
/// Not every command offers every format; each checks with ``require(_:in:)`` and lists the ones
/// it offers in its help (the type is deliberately not `CaseIterable`, so help does not list them all).
enum OutputFormat: String, ExpressibleByArgument {
    /// Aligned columns with units in the header, dates in local time.
    case table
    /// A header line and one line per row, quoted as RFC 4180 says.
    case csv
    /// One JSON document with stable key order.
    case json
    /// An Arrow IPC stream, for data tools (pyarrow, Polars, Spark) to read without parsing text.
    case arrow

    /// Checks that the command supports this format.
    ///
    /// - Throws: `ValidationError` naming the formats the command offers.
    func require(_ allowed: [OutputFormat], in command: String) throws {
        guard allowed.contains(self) else {
            let names = allowed.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("cadence \(command) does not print \(rawValue); use one of: \(names).")
        }
    }
}
