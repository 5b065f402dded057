//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What an ``ExportXMLReader`` hands the records it reads to.
///
/// A sink that sets ``receivesRecordViews`` gets the common record — a self-closing top-level
/// `<Record .../>` that needs nothing but the reader's cached strings, dates in the export's
/// format and a plain value — as an ``ExportRecordView``, and builds no ``ExportRecord`` for it:
/// on a large export that is most of the reading time saved. Every other record comes as an
/// ``ExportRecord``.
protocol ExportRecordSink {
    /// Whether plain records come to ``receive(_:)-(ExportRecordView)`` as views.
    static var receivesRecordViews: Bool { get }

    /// Whether top-level `<Correlation>` elements come to ``receive(_:)-(ExportRecord)`` too, as
    /// records with ``ExportRecord/correlationMemberCount`` set, after the records they hold.
    static var receivesCorrelations: Bool { get }

    /// Receives a complete, well-formed record, in file order.
    mutating func receive(_ record: ExportRecord) throws

    /// Receives a plain record as a view, in file order, when ``receivesRecordViews`` is set.
    mutating func receive(_ view: ExportRecordView) throws

    /// Receives a complete, well-formed `<Workout>` with its children (<doc:HowCadenceComputes#Categories-workouts-and-correlations>), in file order;
    /// `line` is that of its start tag. Its UUID is the one derived for occurrence 0 (the caller
    /// numbers look-alike workouts). Its routes name their GPX files and are not read yet.
    mutating func receive(_ workout: Workout, line: Int) throws

    /// Receives a well-formed `<ActivitySummary>` (<doc:HowCadenceComputes#Activity-summaries>), in file order; `line` is
    /// that of its tag.
    mutating func receive(_ summary: ActivitySummary, line: Int) throws
}

extension ExportRecordSink {
    static var receivesRecordViews: Bool { false }

    static var receivesCorrelations: Bool { false }

    /// Receives the record the view stands for, exactly as the reader would have built it with
    /// ``ExportXMLReader/parsesExportDates`` set.
    mutating func receive(_ view: ExportRecordView) throws {
        try receive(view.record())
    }

    /// Ignores the workout (it is still counted in ``ExportReadSummary/deliveredWorkoutCount``).
    mutating func receive(_ workout: Workout, line: Int) throws {}

    /// Ignores the summary (it is still counted in ``ExportReadSummary/deliveredActivitySummaryCount``).
    mutating func receive(_ summary: ActivitySummary, line: Int) throws {}
}

/// The sink behind ``ExportXMLReader/feed(_:to:)``: a closure that takes every record.
struct ClosureRecordSink: ExportRecordSink {
    let handler: (ExportRecord) throws -> Void

    func receive(_ record: ExportRecord) throws { try handler(record) }
}
