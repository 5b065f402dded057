//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What an ``ExportXMLReader`` saw in an `export.xml`: element counts and skipped records.
///
/// ``recordCount`` counts every `<Record>` element, delivered or not; the records delivered to
/// the handler are ``deliveredRecordCount``, which is ``recordCount`` less
/// ``malformedRecordCount``. Records inside correlations are counted in both ``recordCount``
/// and ``correlationRecordCount``, because Apple writes them twice.
public struct ExportReadSummary: Sendable, Equatable {
    /// `<Record>` elements met, at top level and inside correlations, including malformed ones.
    public var recordCount = 0
    /// Of ``recordCount``, the records that sit inside a `<Correlation>`.
    public var correlationRecordCount = 0
    /// Of ``recordCount``, the records whose type starts with `HKCategoryTypeIdentifier`.
    public var categoryRecordCount = 0
    /// Records handed to the handler.
    public var deliveredRecordCount = 0
    /// Records skipped because they were malformed: a required attribute missing, an attribute
    /// too long, an undefined entity, a broken tag. The first few are in ``issues``.
    public var malformedRecordCount = 0
    /// `<Correlation>` elements met.
    public var correlationCount = 0
    /// `<Workout>` elements met.
    public var workoutCount = 0
    /// Of ``workoutCount``, the workouts read whole and handed over.
    public var deliveredWorkoutCount = 0
    /// Of ``workoutCount``, the workouts skipped because they could not be read (a required
    /// attribute missing, a value that is not a number); the first few are in ``issues``.
    public var malformedWorkoutCount = 0
    /// `<ActivitySummary>` elements met.
    public var activitySummaryCount = 0
    /// Of ``activitySummaryCount``, the summaries read whole and handed over.
    public var deliveredActivitySummaryCount = 0
    /// Of ``activitySummaryCount``, the summaries skipped because they could not be read (no or a
    /// bad day, a value that is not a number, an unknown energy unit); the first few are in ``issues``.
    public var malformedActivitySummaryCount = 0
    /// `<MetadataEntry>` elements met, wherever they were.
    public var metadataEntryCount = 0
    /// Other elements met (`<HealthData>`, `<Me>`, `<WorkoutEvent>`, `<Location>`, ...).
    public var otherElementCount = 0
    /// Attribute values of delivered records in which invalid UTF-8 or a control character
    /// that XML forbids was replaced with U+FFFD.
    public var repairedValueCount = 0
    /// Bytes of XML read; when reading stopped at damage, the bytes before the markup it stopped
    /// at (a tag, comment or declaration), however the file was cut into blocks.
    public var byteCount = 0
    /// Lines read (the number of line feeds plus one).
    public var lineCount = 1
    /// The first problems met, in file order: malformed records and other markup that was
    /// stepped over. At most the reader's ``ExportXMLReader/Limits/maxReportedIssues``.
    public var issues: [ImportIssue] = []

    /// Creates an empty summary.
    public init() {}

    /// How many elements of a kind the file held.
    ///
    /// - Parameter kind: The kind of element.
    /// - Returns: ``recordCount``, ``correlationCount``, ``workoutCount``,
    ///   ``activitySummaryCount``, or for ``ExportElementKind/other`` the sum of
    ///   ``metadataEntryCount`` and ``otherElementCount``.
    public func count(of kind: ExportElementKind) -> Int {
        switch kind {
        case .record: recordCount
        case .correlation: correlationCount
        case .workout: workoutCount
        case .activitySummary: activitySummaryCount
        case .other: metadataEntryCount + otherElementCount
        }
    }
}

extension ExportReadSummary {
    /// Adds the counts of a later part of the same file.
    mutating func add(_ other: ExportReadSummary) {
        recordCount += other.recordCount
        correlationRecordCount += other.correlationRecordCount
        categoryRecordCount += other.categoryRecordCount
        deliveredRecordCount += other.deliveredRecordCount
        malformedRecordCount += other.malformedRecordCount
        correlationCount += other.correlationCount
        workoutCount += other.workoutCount
        deliveredWorkoutCount += other.deliveredWorkoutCount
        malformedWorkoutCount += other.malformedWorkoutCount
        activitySummaryCount += other.activitySummaryCount
        deliveredActivitySummaryCount += other.deliveredActivitySummaryCount
        malformedActivitySummaryCount += other.malformedActivitySummaryCount
        metadataEntryCount += other.metadataEntryCount
        otherElementCount += other.otherElementCount
        repairedValueCount += other.repairedValueCount
        byteCount += other.byteCount
        issues += other.issues
    }
}
