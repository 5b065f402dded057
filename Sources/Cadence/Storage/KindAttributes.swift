//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// What a sample of another kind than a quantity carries beyond the columns every series has
/// (times, value, provenance, creation, metadata, UUID): kept in its metadata column under
/// reserved keys, so every kind shares the chunk, log and identity machinery unchanged, and
/// these attributes take part in a derived UUID like any other (<doc:HowCadenceComputes#Identity>). Reserved keys never
/// appear in a sample's public metadata.
package enum KindAttributes {
    /// The prefix of every reserved key (no `HKMetadataKey…` or export key starts with it).
    static let prefix = "_cadence."
    /// A category value name the type's table does not hold, kept verbatim.
    package static let categoryValueName = prefix + "categoryValueName"
    /// A correlation's members: `typeIdentifier uuid` pairs, one a line.
    package static let correlationMembers = prefix + "correlationMembers"
    /// A workout's attributes beyond the common columns (``WorkoutAttributes``).
    package static let workout = prefix + "workout"
    /// The prefix of an activity summary's ring values, one key per value it has
    /// (`_cadence.activity.activeEnergyBurned`, ...: ``ActivitySummary``).
    package static let activity = prefix + "activity."

    /// Splits stored metadata into the public part and the reserved attributes.
    ///
    /// - Complexity: O(*k*) for *k* keys; no copy when there is no reserved key.
    package static func split(_ metadata: [String: String]) -> (metadata: [String: String], attributes: [String: String]) {
        guard metadata.keys.contains(where: { $0.hasPrefix(prefix) }) else { return (metadata, [:]) }
        var visible = metadata
        var attributes: [String: String] = [:]
        for (key, value) in metadata where key.hasPrefix(prefix) {
            visible[key] = nil
            attributes[key] = value
        }
        return (visible, attributes)
    }

    /// The text of ``correlationMembers``: one `typeIdentifier uuid` line per member, in order.
    package static func members(_ members: [(type: String, uuid: UUID)]) -> String {
        members.map { "\($0.type) \($0.uuid.uuidString)" }.joined(separator: "\n")
    }

    /// The members ``members(_:)`` wrote; unreadable lines are skipped.
    package static func members(from text: String) -> [(type: String, uuid: UUID)] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let uuid = UUID(uuidString: String(parts[1])) else { return nil }
            return (String(parts[0]), uuid)
        }
    }
}
