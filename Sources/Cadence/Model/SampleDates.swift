//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The check every kind of sample makes of its dates when it is made, so that all refuse the same
/// intervals with the same words.
enum SampleDates {
    /// Checks that a sample's interval runs forward (an instant, `start == end`, does).
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument``, naming `path` when given, when `start` is
    ///   after `end` or either is not a number.
    static func check(start: Date, end: Date, path: String? = nil) throws {
        guard start <= end else {
            throw CadenceError(.invalidArgument, "the start date \(start) is after the end date \(end)", path: path)
        }
    }
}
