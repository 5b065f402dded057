//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

extension HealthStore {
    /// Saves activity summaries in one transaction (<doc:HowCadenceComputes#Activity-summaries>): a summary identical to the
    /// one stored for its day is a duplicate; one with other values replaces it, deleted in the same
    /// log record, so a crash leaves the old summary or the new one, never both or neither. Of
    /// several summaries for one day, the last is saved.
    ///
    /// - Returns: Summaries saved (``SaveSummary/saved``; of them, ``SaveSummary/replaced`` replaced
    ///   a stored one), unchanged (``SaveSummary/duplicates``), and skipped because the same values
    ///   for that day were deleted (``SaveSummary/keptDeleted``).
    /// - Throws: What ``save(_:restoringDeleted:)`` throws.
    /// - Complexity: O(*n*) for *n* summaries, plus a pass over the stored chunks and unflushed
    ///   batches whose days reach from the first to the last day saved (to find the summaries
    ///   repeated or replaced); none when the days saved are all before or after the stored ones.
    @discardableResult
    public func save(_ summaries: [ActivitySummary], restoringDeleted: Bool = false) throws -> SaveSummary {
        var lastOfDay: [ActivityDay: Int] = [:]
        for (index, summary) in summaries.enumerated() { lastOfDay[summary.day] = index }
        var batch = QuantitySampleBatch(type: .series(ActivitySummary.typeIdentifier), capacity: lastOfDay.count)
        for (index, summary) in summaries.enumerated() where lastOfDay[summary.day] == index {
            try batch.append(summary)
        }
        return try save([batch], restoringDeleted: restoringDeleted, replacingByStart: [ActivitySummary.typeIdentifier])
    }

    /// Deletes the activity summaries of the days from `first` through `last` (either `nil` for
    /// no bound), recording a deleted object for each.
    ///
    /// - Returns: The number of summaries deleted.
    @discardableResult
    public func deleteActivitySummaries(from first: ActivityDay? = nil, through last: ActivityDay? = nil) throws -> Int {
        try deleteSamples(ofSeries: .series(ActivitySummary.typeIdentifier),
                          matching: ActivityDay.predicate(from: first, through: last))
    }
}

extension ActivityDay {
    /// The stored summaries of the days from `first` through `last`: those whose UTC-midnight
    /// interval starts in `[first, last + 1)`.
    package static func predicate(from first: ActivityDay?, through last: ActivityDay?) -> SamplePredicate {
        guard first != nil || last != nil else { return .all }
        return SamplePredicate(.date(start: first?.startTimestamp, end: last?.endTimestamp, options: .strictStartDate))
    }
}

extension ActivitySummary {
    /// The provenance every summary is stored under: summaries have no source of their own.
    static let provenance = Provenance(source: Source(name: "Activity"))

    /// The attributes a summary keeps in its row's metadata: each known value under its key.
    private static var storedKeys: [(key: String, value: WritableKeyPath<ActivitySummary, Double?>)] {
        [
            ("activeEnergyBurned", \.activeEnergyBurned), ("activeEnergyBurnedGoal", \.activeEnergyBurnedGoal),
            ("appleMoveTime", \.appleMoveTime), ("appleMoveTimeGoal", \.appleMoveTimeGoal),
            ("appleExerciseTime", \.appleExerciseTime), ("appleExerciseTimeGoal", \.appleExerciseTimeGoal),
            ("appleStandHours", \.appleStandHours), ("appleStandHoursGoal", \.appleStandHoursGoal),
        ].map { (KindAttributes.activity + $0.0, $0.1) }
    }

    /// The row's value column: how many rings were closed, so that the column says something of
    /// the day (the values themselves are in ``storedAttributes``).
    var storedValue: Double { Double(Ring.allCases.count { isClosed($0) == true }) }

    /// The reserved metadata that holds the values (``KindAttributes/activity``), each written as
    /// Swift's shortest text that reads back as the same `Double`.
    var storedAttributes: [String: String] {
        var attributes: [String: String] = [:]
        for (key, value) in Self.storedKeys { attributes[key] = self[keyPath: value].map { "\($0)" } }
        return attributes
    }

    /// The summary a stored row holds, or `nil` when its day or a value cannot be read.
    init?(day: ActivityDay, attributes: [String: String]) {
        self.init(day: day)
        for (key, value) in Self.storedKeys {
            guard let text = attributes[key] else { continue }
            guard let number = Double(text), number.isFinite else { return nil }
            self[keyPath: value] = number
        }
    }
}

extension QuantitySampleBatch {
    /// Appends an activity summary to a batch of the activity summary series: its day as a
    /// floating UTC-midnight interval, its values among the reserved attributes, its UUID derived
    /// from both (``ActivitySummary/uuid``).
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` if the batch is of another series, or a
    ///   value is not finite.
    package mutating func append(_ summary: ActivitySummary) throws {
        guard quantityType.identifier == ActivitySummary.typeIdentifier else {
            throw CadenceError(.invalidArgument, "an activity summary cannot join a \(quantityType) batch")
        }
        for ring in ActivitySummary.Ring.allCases {
            let (value, goal) = summary.ring(ring)
            for number in [value, goal].compactMap({ $0 }) where !number.isFinite {
                throw CadenceError(.invalidArgument,
                                   "the \(ring.rawValue) ring of \(summary.day) has the value \(number), not a finite number")
            }
        }
        let index = addProvenance(ActivitySummary.provenance)
        try append(startTimestamp: summary.day.startTimestamp, endTimestamp: summary.day.endTimestamp,
                   value: summary.storedValue, provenanceIndex: index, metadata: summary.storedAttributes)
    }
}

extension SampleReading where Sample == ActivitySummary {
    /// Activity summaries, read from their rows.
    package static var activitySummaries: SampleReading {
        SampleReading(identifier: ActivitySummary.typeIdentifier,
                      validate: { try $0.validate(for: .series(ActivitySummary.typeIdentifier)) }) { _, _ in
            { columns, row in
                guard let day = ActivityDay(timestamp: columns.start[row]) else { return nil }
                return ActivitySummary(day: day, attributes: KindAttributes.split(columns.metadata(at: row)).attributes)
            }
        }
    }
}
