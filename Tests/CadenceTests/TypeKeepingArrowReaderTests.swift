//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Reading only one type's rows of a many-user Arrow stream into a snapshot answers statistics
/// exactly as the in-memory store of every row does: the same samples, duplicates, look-alike
/// records, rejections, and the same order of sources (which decides merging and the per-source
/// rows), on random streams whose other types share the sources.
@Suite("Arrow input kept to one type")
struct TypeKeepingArrowReaderTests {
    static let watch = "<<HKDevice: 0x1>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1>"
    static let phone = "<<HKDevice: 0x2>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.1>"

    /// A random stream of `users` users: steps, heart rate, energy and sleep rows from a few
    /// sources with and without devices, some repeated, some with a UUID given twice, some
    /// user-entered, a few malformed; the type column dictionary-encoded or plain, spelled in
    /// full or short.
    static func randomStream(users: Int, random: inout SeededRandom) throws -> [UInt8] {
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
        let types: [(names: [String], unit: String?, values: ClosedRange<Double>)] = [
            (["HKQuantityTypeIdentifierStepCount", "stepCount"], "count", 0...500),
            (["HKQuantityTypeIdentifierHeartRate", "heartRate"], "count/min", 40...180),
            (["HKQuantityTypeIdentifierActiveEnergyBurned"], "kcal", 0...30),
            (["HKCategoryTypeIdentifierSleepAnalysis"], nil, 0...0),
        ]
        let sources: [(name: String, version: String?, device: String?)] = [
            // App A on a watch as well: every row of App A then ranks as a watch's.
            ("Watch", "10.1", watch), ("Phone", "17.1", phone), ("App A", nil, nil), ("App A", "3", watch),
            ("App B", "2", nil), ("App C", nil, nil), ("", nil, nil),
        ]
        var user: [String?] = [], type: [String?] = [], source: [String?] = [], unit: [String?] = [], value: [String?] = []
        var start: [Int64?] = [], end: [Int64?] = [], version: [String?] = [], device: [String?] = [], uuid: [String?] = []
        var userEntered: [String?] = []
        let base: Int64 = 1_704_067_200_000_000
        let givenUUIDs = (0..<3).map { _ in UUID().uuidString }
        for number in 0..<users {
            var previous: Int?
            for _ in 0..<Int.random(in: 0...120, using: &random) {
                // Some rows repeat the row before them, every attribute alike.
                if let previous, Int.random(in: 0..<8, using: &random) == 0 {
                    user.append(user[previous]); type.append(type[previous]); source.append(source[previous])
                    unit.append(unit[previous]); value.append(value[previous]); start.append(start[previous])
                    end.append(end[previous]); version.append(version[previous]); device.append(device[previous])
                    uuid.append(uuid[previous]); userEntered.append(userEntered[previous])
                    continue
                }
                let kind = pick(types)
                // Two days of long samples: sources overlap, and merging them needs their ranks.
                let from = base + Int64.random(in: 0..<(2 * 86_400), using: &random) * 1_000_000
                let length = Int64.random(in: 0..<(4 * 3_600), using: &random) * 1_000_000
                let origin = pick(sources)
                user.append("user\(number)")
                type.append(pick(kind.names))
                source.append(origin.name.isEmpty ? nil : origin.name)
                unit.append(kind.unit)
                value.append(kind.unit == nil ? "HKCategoryValueSleepAnalysisAsleepCore"
                             : Int.random(in: 0..<40, using: &random) == 0 ? "many"
                             : "\(Double.random(in: kind.values, using: &random).rounded())")
                // Now and then a start after the end: rejected.
                let reversed = Int.random(in: 0..<40, using: &random) == 0
                start.append(reversed ? from + length + 1 : from)
                end.append(from + length)
                version.append(origin.version)
                device.append(origin.device)
                uuid.append(Int.random(in: 0..<10, using: &random) == 0 ? pick(givenUUIDs) : nil)
                userEntered.append(Int.random(in: 0..<6, using: &random) == 0 ? "1" : nil)
                previous = user.count - 1
            }
        }
        let dictionaryTypes = Bool.random(using: &random)
        var typeColumn = ArrowColumn(name: "type", strings: type)
        if dictionaryTypes {
            let entries = Array(Set(type.compactMap { $0 })).sorted()
            let field = ArrowField(name: "type", type: .utf8(large: false), dictionary: .init(id: 0, indexType: .int(bitWidth: 16, signed: true)))
            typeColumn = ArrowColumn(field: field, count: type.count, validity: nil,
                                     values: .dictionary(indices: type.map { entries.firstIndex(of: $0 ?? "") ?? 0 },
                                                         dictionary: ArrowColumn(name: "type", strings: entries)))
        }
        let columns = [
            ArrowColumn(name: "user", strings: user), typeColumn, ArrowColumn(name: "sourceName", strings: source),
            ArrowColumn(name: "unit", strings: unit), ArrowColumn(name: "startDate", timestamps: start, zone: "UTC"),
            ArrowColumn(name: "endDate", timestamps: end, zone: "UTC"), ArrowColumn(name: "value", strings: value),
            ArrowColumn(name: "uuid", strings: uuid), ArrowColumn(name: "sourceVersion", strings: version),
            ArrowColumn(name: "device", strings: device), ArrowColumn(name: "metadata:HKWasUserEntered", strings: userEntered),
        ]
        let schema = ArrowSchema(fields: columns.map(\.field))
        var bytes: [UInt8] = []
        var writer = try ArrowStreamWriter(schema: schema, format: .stream) { bytes += $0 }
        if dictionaryTypes, case .dictionary(_, let entries) = typeColumn.values { try writer.writeDictionary(id: 0, entries) }
        // Two batches, split anywhere (even inside a user).
        let split = Int.random(in: 0...user.count, using: &random)
        for range in [0..<split, split..<user.count] {
            let slice = columns.map { column in Self.rows(range, of: column) }
            try writer.write(ArrowRecordBatch(schema: schema, count: range.count, columns: slice))
        }
        try writer.finish()
        return bytes
    }

    /// Rows `range` of a column written by ``randomStream(users:random:)``.
    static func rows(_ range: Range<Int>, of column: ArrowColumn) -> ArrowColumn {
        let validity = column.validity.map { Array($0[range]) }
        switch column.values {
        case .dictionary(let indices, let dictionary):
            return ArrowColumn(field: column.field, count: range.count, validity: validity,
                               values: .dictionary(indices: Array(indices[range]), dictionary: dictionary))
        case .integers(let values):
            return ArrowColumn(field: column.field, count: range.count, validity: validity, values: .integers(Array(values[range])))
        default:
            return ArrowColumn(name: column.field.name, strings: range.map { column.string($0) })
        }
    }

    /// Every interval's statistics, each source's in the collection's order of sources.
    static func describe(_ collection: StatisticsCollection) throws -> [String] {
        let sources = collection.statistics().flatMap { $0.sources ?? [] }
        return collection.statistics().map { statistics in
            var text = "\(statistics.startDate) \(statistics.count() ?? -1) \(String(describing: statistics.sumQuantity()))"
            text += " \(String(describing: statistics.averageQuantity())) \(String(describing: statistics.minimumQuantity()))"
            text += " \(String(describing: statistics.maximumQuantity())) \(String(describing: statistics.mostRecentQuantity()))"
            text += " \(String(describing: statistics.mostRecentQuantityDateInterval()))"
            for source in statistics.sources ?? [] { text += " \(source.name)=\(String(describing: statistics.sumQuantity(for: source)))" }
            return text + " of \(sources.map(\.name))"
        }
    }

    @Test func keepingOneTypeAnswersAsTheStoreOfEveryRow() throws {
        var random = SeededRandom(seed: 29)
        let anchor = Date(timeIntervalSince1970: 1_704_067_200)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? utc.timeZone
        let queries = [
            try StatisticsCollectionQuery(quantityType: .stepCount, options: [.cumulativeSum, .separateBySource], anchorDate: anchor,
                                          intervalComponents: IntervalComponents(count: 6, unit: .hour), calendar: utc),
            try StatisticsCollectionQuery(quantityType: .stepCount, options: [.cumulativeSum], anchorDate: anchor,
                                          intervalComponents: IntervalComponents(count: 1, unit: .day), calendar: utc,
                                          sourcePriority: ["App B"]),
            try StatisticsCollectionQuery(quantityType: .heartRate,
                                          options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .separateBySource],
                                          anchorDate: anchor, intervalComponents: IntervalComponents(count: 1, unit: .day), calendar: utc),
        ]
        for _ in 0..<25 {
            let bytes = try Self.randomStream(users: Int.random(in: 1...4, using: &random), random: &random)
            for query in queries {
                var expected: [String: (rows: [String], rejected: [Int], rejectedCount: Int)] = [:]
                let reader = UserPartitionedArrowReader(name: "<test>")
                let storeUsers = try reader.read(from: Self.source(bytes)) { user, store, summary in
                    expected[user] = (try Self.describe(store.execute(query)), summary.rejections.map(\.line), summary.rejected)
                }
                var users = 0
                try reader.read(from: Self.source(bytes), keeping: query.quantityType) { user, snapshot, summary in
                    users += 1
                    let rows = try Self.describe(CollectionPlan(query, snapshot: snapshot).execute())
                    #expect(rows == expected[user]?.rows, "user \(user), \(query.quantityType.identifier)")
                    // Rejections of the kept type are the store's; other types' rows are not parsed.
                    if let store = expected[user], store.rejected.count == store.rejectedCount {
                        #expect(Set(summary.rejections.map(\.line)).isSubset(of: Set(store.rejected)))
                    }
                }
                #expect(users == storeUsers)
            }
        }
    }

    /// Reads `bytes` in pieces of 1 kB.
    static func source(_ bytes: [UInt8]) -> (UnsafeMutableRawBufferPointer) throws -> Int {
        var remaining = bytes[...]
        return { buffer in
            let count = min(buffer.count, remaining.count, 1_000)
            remaining.prefix(count).withUnsafeBytes { buffer.copyMemory(from: $0) }
            remaining = remaining.dropFirst(count)
            return count
        }
    }
}
