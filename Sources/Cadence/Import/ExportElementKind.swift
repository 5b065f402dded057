//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The kinds of top-level data element in an Apple Health `export.xml` that the reader counts.
///
/// ``ExportReadSummary/count(of:)`` reports how many of each the file held, so that a caller
/// can tell a person what an import skipped (workouts, activity summaries) besides records.
public enum ExportElementKind: String, Sendable, Hashable, CaseIterable {
    /// `<Record>`, at top level or inside a `<Correlation>`.
    case record
    /// `<Correlation>`, such as `HKCorrelationTypeIdentifierFood` or `...BloodPressure`.
    case correlation
    /// `<Workout>`.
    case workout
    /// `<ActivitySummary>`, one per day of Activity rings.
    case activitySummary
    /// Any other element: `<HealthData>`, `<Me>`, `<MetadataEntry>`, `<WorkoutEvent>`, ...
    case other
}
