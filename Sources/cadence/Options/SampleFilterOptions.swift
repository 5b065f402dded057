//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// The options that select samples by date and source: `--from`, `--to`, `--strict-start`,
/// `--strict-end`, `--source` and the `--time-zone` dates are read in.
///
/// They build the date predicate over [from, to) (see How Cadence computes, Predicates): with
/// neither strict flag a sample matches when it ends at or after `from` and starts before `to`.
struct SampleFilterOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The start of the date range, inclusive: RFC 3339 (2024-03-10T00:00:00-05:00) or a day (2024-03-10).",
        valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("The end of the date range, exclusive, in the same forms as --from.", valueName: "date"))
    var to: String?

    @Flag(help: "Select only samples that start at or after --from (HealthKit's strictStartDate).")
    var strictStart = false

    @Flag(help: "Select only samples that end before --to (HealthKit's strictEndDate).")
    var strictEnd = false

    @Option(name: .customLong("source"), help: ArgumentHelp(
        "Select only samples written by this source; repeat for several.", valueName: "name"))
    var sources: [String] = []

    @Option(help: ArgumentHelp(
        "The IANA time zone for plain days, calendar intervals and printed dates (default: the host's).",
        valueName: "zone"))
    var timeZone: String?

    /// The parsed filter.
    struct Resolved {
        /// The time zone dates are read and written in.
        var timeZone: TimeZone
        /// The name to report for it.
        var timeZoneName: String
        /// The start of the range, if given.
        var from: Date?
        /// The end of the range, if given.
        var to: Date?
        /// The predicate the options describe.
        var predicate: SamplePredicate
    }

    /// Parses the options into a predicate.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` for an unreadable date or zone, or when
    ///   `--from` is not before `--to`.
    func resolve() throws -> Resolved {
        let zone = try ArgumentValues.timeZone(timeZone)
        let start = try from.map { try ArgumentValues.date($0, option: "--from", timeZone: zone) }
        let end = try to.map { try ArgumentValues.date($0, option: "--to", timeZone: zone) }
        if let start, let end, start >= end {
            throw CadenceError(.invalidArgument, "--from (\(from ?? "")) must be before --to (\(to ?? "")).")
        }
        var parts: [SamplePredicate] = []
        if start != nil || end != nil || strictStart || strictEnd {
            var options: SamplePredicate.DateOptions = []
            if strictStart { options.insert(.strictStartDate) }
            if strictEnd { options.insert(.strictEndDate) }
            parts.append(.samples(start: start, end: end, options: options))
        }
        if !sources.isEmpty { parts.append(.sources(named: sources)) }
        let predicate = parts.dropFirst().reduce(parts.first ?? .all) { $0 && $1 }
        return Resolved(timeZone: zone, timeZoneName: ArgumentValues.timeZoneName(timeZone, zone: zone),
                        from: start, to: end, predicate: predicate)
    }

    /// Whether any option narrows the selection.
    var isEmpty: Bool { from == nil && to == nil && sources.isEmpty && !strictStart && !strictEnd }
}
