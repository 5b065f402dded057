//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// How `activity`, and `changes` on the activity summary type, print activity summaries: each
/// ring's value and goal in its canonical unit (kilocalories, minutes, a count of hours) and
/// whether it was closed.
enum ActivityOutput {
    /// The rings as the output names them, with the unit the table heads their column with.
    private static let rings: [(ring: ActivitySummary.Ring, name: String, unit: String)] = [
        (.move, "move", "kcal"), (.moveTime, "moveTime", "min"), (.exercise, "exercise", "min"), (.stand, "stand", "hours"),
    ]

    /// A summary as a JSON object: `day`, `uuid`, then per ring an object of `value`, `goal` and
    /// `closed` (each null when unknown).
    static func json(_ summary: ActivitySummary) -> JSONValue {
        .object([("day", .string(summary.day.description)), ("uuid", .string(summary.uuid.uuidString))]
            + rings.map { ring in
                let (value, goal) = summary.ring(ring.ring)
                return (ring.name, .object([
                    ("value", .number(value)), ("goal", .number(goal)),
                    ("closed", summary.isClosed(ring.ring).map(JSONValue.bool) ?? .null),
                ]))
            })
    }

    /// `yes`, `no`, or empty when the ring's value or goal is unknown.
    private static func closedText(_ closed: Bool?) -> String { closed.map { $0 ? "yes" : "no" } ?? "" }

    /// Summaries in `format`: a JSON document under `summaries`, CSV with a header, or an aligned
    /// table with one `value/goal` column per ring, a `*` after a closed ring.
    static func write(_ summaries: [ActivitySummary], format: OutputFormat, into output: inout StandardOutput) {
        switch format {
        case .json:
            output.writeLine(JSONValue.object([("summaries", .array(summaries.map(json)))]).serialized())
        case .csv:
            output.write(CSVOutput.line(["day"] + rings.flatMap { ["\($0.name)", "\($0.name)Goal", "\($0.name)Closed"] }))
            for summary in summaries {
                output.write(CSVOutput.line([summary.day.description] + rings.flatMap { ring in
                    let (value, goal) = summary.ring(ring.ring)
                    return [value.map(JSONValue.numberText) ?? "", goal.map(JSONValue.numberText) ?? "",
                            closedText(summary.isClosed(ring.ring))]
                }))
            }
        // Summaries have no Arrow form: the command refuses it before.
        case .table, .arrow:
            var table = TableRenderer(columns: [.init("Day")] + rings.map {
                .init("\($0.name.prefix(1).uppercased() + $0.name.dropFirst()) (\($0.unit))", alignment: .right)
            })
            for summary in summaries {
                // The mark's place is kept on every row, so that right-aligned figures line up.
                table.append([summary.day.description] + rings.map { ring in
                    let (value, goal) = summary.ring(ring.ring)
                    let text = value == nil && goal == nil ? "-"
                        : "\(value.map(NumberText.readable) ?? "-")/\(goal.map(NumberText.readable) ?? "-")"
                    return text + (summary.isClosed(ring.ring) == true ? " *" : "  ")
                })
            }
            output.write(table.render())
            output.write("* closed ring (value at or above its goal)\n")
        }
    }
}
