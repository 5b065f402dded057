//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The activity summaries of a file, in file order, held in a ``SpillFile`` until the whole file
/// is read: a later summary of a day replaces an earlier one (<doc:HowCadenceComputes#Activity-summaries>),
/// so only the last of each day is saved, which only the end of the file tells. On disk they cost
/// the import no memory however many the file holds.
///
/// Every summary takes a frame of the same size, so the file is read from its end as easily as
/// from its start: ``lastOfEachDay(batch:)`` reads it backwards once, marking the summaries no
/// later one replaces.
struct HeldActivitySummaries {
    /// The rings' values and goals, in the order they are written.
    private static var values: [WritableKeyPath<ActivitySummary, Double?>] {
        [\.activeEnergyBurned, \.activeEnergyBurnedGoal, \.appleMoveTime, \.appleMoveTimeGoal,
         \.appleExerciseTime, \.appleExerciseTimeGoal, \.appleStandHours, \.appleStandHoursGoal]
    }
    /// A summary's payload: its day number, which values it has (a bit each), and each value.
    private static let payloadBytes = 8 + 1 + 8 * 8
    private static let frameBytes = SpillFile.headerBytes + payloadBytes
    /// The day numbers of the first and last days a summary may have (years 1 through 9999).
    private static let firstDay = ProlepticGregorian.dayNumber(year: 1, month: 1, day: 1)
    private static let lastDay = ProlepticGregorian.dayNumber(year: 9999, month: 12, day: 31)

    private var file: SpillFile?
    /// Where the temporary file goes.
    private let directory: String

    /// Holds nothing yet; the file is created in `directory` when the first summary comes.
    init(directory: String) { self.directory = directory }

    /// The summaries held.
    var count: Int { file?.count ?? 0 }

    /// Holds `summaries`, after those held before.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming the temporary file, when it cannot be written.
    mutating func hold(_ summaries: [ActivitySummary]) throws(CadenceError) {
        guard !summaries.isEmpty else { return }
        var file: SpillFile
        if let existing = self.file { file = existing } else { file = try SpillFile(in: directory) }
        let values = Self.values
        for summary in summaries {
            var writer = BinaryWriter(capacity: Self.payloadBytes)
            writer.write(summary.day.dayNumber)
            var present: UInt8 = 0
            for (bit, value) in values.enumerated() where summary[keyPath: value] != nil { present |= 1 << bit }
            writer.write(present)
            for value in values { writer.write(summary[keyPath: value] ?? 0) }
            try file.append(writer.bytes)
        }
        self.file = file
    }

    /// Calls `save` with the last summary of each day, in file order, at most `batch` at a time.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming the temporary file, when it cannot be read or is
    ///   damaged; and what `save` throws.
    /// - Complexity: Two reads of the file; memory is `batch` summaries, a bit per summary held,
    ///   and a bit per calendar day (450 KiB).
    mutating func lastOfEachDay(batch: Int, _ save: ([ActivitySummary]) throws -> Void) throws {
        guard var file, file.count > 0 else { return }
        try file.flush()
        self.file = file
        let batch = max(1, batch)
        let dayCount = Int(Self.lastDay - Self.firstDay) + 1
        var seenDays = [UInt64](repeating: 0, count: dayCount / 64 + 1)
        var kept = [UInt64](repeating: 0, count: file.count / 64 + 1)
        var end = file.count
        while end > 0 {
            let first = max(0, end - batch)
            let summaries = try read(file, first: first, count: end - first)
            for (offset, summary) in summaries.enumerated().reversed() {
                let day = Int(summary.day.dayNumber - Self.firstDay)
                guard seenDays[day / 64] & (1 << (day % 64)) == 0 else { continue }
                seenDays[day / 64] |= 1 << (day % 64)
                kept[(first + offset) / 64] |= 1 << ((first + offset) % 64)
            }
            end = first
        }
        var first = 0
        while first < file.count {
            let summaries = try read(file, first: first, count: min(batch, file.count - first))
            let last = summaries.enumerated().filter { kept[(first + $0.offset) / 64] & (1 << ((first + $0.offset) % 64)) != 0 }
            if !last.isEmpty { try save(last.map(\.element)) }
            first += summaries.count
        }
    }

    /// The `count` summaries held from the one at `first`.
    private func read(_ file: SpillFile, first: Int, count: Int) throws(CadenceError) -> [ActivitySummary] {
        var summaries: [ActivitySummary] = []
        summaries.reserveCapacity(count)
        for payload in try file.fixedFrames(first: first, count: count, frameBytes: Self.frameBytes) {
            var reader = BinaryReader(payload, path: file.path)
            var summary: ActivitySummary
            do {
                guard let day = ActivityDay(dayNumber: try reader.read(Int64.self)) else {
                    throw CadenceError(.io, "the import's temporary file holds a day outside years 1 through 9999", path: file.path)
                }
                summary = ActivitySummary(day: day)
                let present = try reader.read(UInt8.self)
                for (bit, value) in Self.values.enumerated() {
                    let number = try reader.readDouble()
                    if present & (1 << bit) != 0 { summary[keyPath: value] = number }
                }
            } catch let error as CadenceError where error.code == .io {
                throw error
            } catch {
                throw SpillFile.undecodable(path: file.path)
            }
            guard reader.isAtEnd else { throw SpillFile.undecodable(path: file.path) }
            summaries.append(summary)
        }
        return summaries
    }
}
