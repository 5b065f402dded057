//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Formatting statistics rows as `cadence stats --format csv` prints them, in memory: rows per
/// second of the output path alone, without the query, the process or the write.
///
/// The rows are the five-minute heart-rate statistics of the dense store (average, minimum and
/// maximum), computed once, untimed. Each run writes every row as `startDate,endDate,average,
/// minimum,maximum` into one byte buffer: RFC 3339 dates in Europe/Berlin with the offset cached
/// between transitions (``RFC3339Writer``), and numbers as `Double.description` spells them.
extension ProfileSuite {
    /// The rows formatted per run: the statistics are repeated up to this many.
    static let formattedRows = 100_000

    /// The figure, named `format.csv.fiveMinute.heartRate.<size>`.
    func measureCSVFormatting(_ store: HealthStore, calendar: Calendar, anchor: Date) throws -> BenchmarkResult {
        let name = "format.csv.fiveMinute.heartRate.\(label)"
        let query = try StatisticsCollectionQuery(quantityType: .heartRate, options: [.discreteAverage, .discreteMin, .discreteMax],
                                                  anchorDate: anchor, intervalComponents: .minutes(5), calendar: calendar)
        var intervals: [FormattedRow] = []
        try store.execute(query).forEachInterval { interval in
            intervals.append(FormattedRow(start: interval.start, end: interval.end,
                                          values: [interval.values.average, interval.values.minimum, interval.values.maximum]))
        }
        guard !intervals.isEmpty else { throw BenchmarkFailure("\(name): the query produced no statistics") }
        let rows = (0..<Self.formattedRows).map { intervals[$0 % intervals.count] }
        var bytes: [UInt8] = []
        let timing = try Stopwatch.measure(runs: options.runs) { _ in
            bytes = Self.formatCSV(rows, timeZone: calendar.timeZone)
        }
        return BenchmarkResult(
            name: name, kind: .throughput, profile: profile.rawValue, storeSamples: size, samples: rows.count,
            value: Double(rows.count) / timing.median, timing: timing, target: .statisticsCSVFormatting,
            note: "rows per second: \(rows.count) rows of five-minute heart rate (avg/min/max, Europe/Berlin) "
                + "formatted as CSV into one buffer (\(bytes.count / rows.count) bytes a row), no query, no write")
    }

    /// One statistics row: its interval and its values (`nil`: no data).
    struct FormattedRow {
        var start: Timestamp
        var end: Timestamp
        var values: [Double?]
    }

    /// The rows as CSV lines, as the command's CSV output writes them: each line formatted
    /// straight into scratch memory, dates and numbers alike, then appended in one go.
    @inline(never)
    static func formatCSV(_ rows: [FormattedRow], timeZone: TimeZone) -> [UInt8] {
        var dates = RFC3339Writer(timeZone: timeZone)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rows.count * 96)
        for row in rows {
            let maximumCount = 2 * RFC3339Writer.maximumCount + row.values.count * (1 + numberTextMaximumCount) + 2
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumCount) { scratch in
                guard let base = scratch.baseAddress else { return }
                var count = dates.write(row.start, to: base)
                base[count] = UInt8(ascii: ",")
                count += 1
                count += dates.write(row.end, to: base + count)
                for value in row.values {
                    base[count] = UInt8(ascii: ",")
                    count += 1
                    if let value { count += writeOutputNumber(value, to: base + count) }
                }
                base[count] = UInt8(ascii: "\n")
                bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: count + 1))
            }
        }
        return bytes
    }
}
