//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Activity summaries for `ExportXMLReader`: one self-closing `<ActivitySummary .../>` per day,
// rare next to records, so its attributes are decoded in full rather than through the record slots.

import Foundation

extension ExportXMLReader {
    /// Reads an `<ActivitySummary>` start tag into an ``ActivitySummary`` and hands it over, or
    /// reports why it cannot be read (<doc:HowCadenceComputes#Activity-summaries>).
    ///
    /// - Parameters:
    ///   - tag: The tag's bytes from `<` to `>`, or `nil` when it was too long to keep.
    ///   - problem: Why the tag is malformed, if it is.
    mutating func readActivitySummaryTag<Sink: ExportRecordSink>(
        _ tag: UnsafeBufferPointer<UInt8>?, problem: String?, line tagLine: Int, handler: inout Sink
    ) throws {
        var reason = problem
        var read: ActivitySummary?
        if reason == nil, let tag {
            let (attributes, attributeProblem) = tagAttributes(tag)
            reason = attributeProblem
            if let attributes {
                do {
                    read = try ActivitySummary(exportAttributes: attributes.pairs)
                } catch let error as CadenceError {
                    reason = error.message
                }
            }
        }
        guard let read else {
            summary.malformedActivitySummaryCount += 1
            addIssue(line: tagLine, "an <ActivitySummary> was skipped: \(reason ?? "it cannot be read")")
            return
        }
        summary.deliveredActivitySummaryCount += 1
        try handler.receive(read, line: tagLine)
    }
}

extension ActivitySummary {
    /// Reads an export's `<ActivitySummary>` attributes: `dateComponents` (`yyyy-MM-dd`, required),
    /// each ring's value and goal (any may be missing), and `activeEnergyBurnedUnit` (the energy's
    /// display unit, kilocalories when missing), converted to kilocalories. Other attributes are
    /// ignored.
    ///
    /// - Throws: ``CadenceError/Code/malformedInput`` naming the attribute: no or a bad day, a value
    ///   that is not a finite number, an energy unit that is unknown or not an energy.
    init(exportAttributes attributes: [(String, String)]) throws {
        var texts: [String: String] = [:]
        for (name, value) in attributes where texts[name] == nil { texts[name] = value }
        guard let dayText = texts["dateComponents"] else {
            throw CadenceError(.malformedInput, "it has no dateComponents")
        }
        do {
            self.init(day: try ActivityDay(dayText.trimmingCharacters(in: .whitespaces)))
        } catch let error as CadenceError {
            throw CadenceError(.malformedInput, "its dateComponents: \(error.message)")
        }
        func number(_ name: String) throws -> Double? {
            guard let text = texts[name] else { return nil }
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
                throw CadenceError(.malformedInput,
                                   "its \(name) '\(SampleCollector.escapingControls(text.prefix(40)))' is not a number")
            }
            return value
        }
        var energy = UnitConversion.identity
        if let unitText = texts["activeEnergyBurnedUnit"] {
            guard let unit = try? HealthUnit(unitText), let conversion = try? unit.conversion(to: .kilocalorie) else {
                let shown = SampleCollector.escapingControls(unitText.prefix(40))
                throw CadenceError(.malformedInput, "its activeEnergyBurnedUnit '\(shown)' is not an energy unit")
            }
            energy = conversion
        }
        activeEnergyBurned = try number("activeEnergyBurned").map(energy.apply)
        activeEnergyBurnedGoal = try number("activeEnergyBurnedGoal").map(energy.apply)
        appleMoveTime = try number("appleMoveTime")
        appleMoveTimeGoal = try number("appleMoveTimeGoal")
        appleExerciseTime = try number("appleExerciseTime")
        appleExerciseTimeGoal = try number("appleExerciseTimeGoal")
        appleStandHours = try number("appleStandHours")
        appleStandHoursGoal = try number("appleStandHoursGoal")
    }
}
