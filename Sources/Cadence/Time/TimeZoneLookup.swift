//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Looks up a time zone by its IANA name, such as `America/New_York`, or `UTC`.
///
/// `UTC` and `GMT` are accepted in any letter case. Other names are resolved by Foundation's time
/// zone database and are case-sensitive; Foundation also accepts its own offset names such as
/// `GMT+0500`. Note that Foundation reports the identifier of the zone returned for `UTC` as
/// `GMT`.
///
/// - Parameter name: The zone's name.
/// - Returns: The time zone.
/// - Throws: ``CadenceError`` with code `.invalidArgument` naming the text when no zone has that
///   name.
public func timeZone(named name: String) throws -> TimeZone {
    let uppercased = name.uppercased()
    if uppercased == "UTC" || uppercased == "GMT", let utc = TimeZone(secondsFromGMT: 0) {
        return utc
    }
    guard !name.isEmpty, name.utf8.count <= 128, let zone = TimeZone(identifier: name) else {
        throw CadenceError(
            .invalidArgument,
            "Unknown time zone \"\(name)\"; use an IANA name such as America/New_York, or UTC.")
    }
    return zone
}
