//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// Identifiers are data: users, sources, types and metadata keys differing in any byte stay
/// apart, even when Swift's `String ==` (canonical equivalence) calls them equal.
@Suite("Byte-exact identity")
struct ByteExactIdentityTests {
    /// `café` precomposed (NFC) and with a combining accent (NFD): equal as Swift strings.
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    static let header = "type,sourceName,unit,startDate,endDate,value"

    /// Writes `lines` to a temporary CSV file and returns its path.
    static func csvFile(_ lines: [String]) throws -> String {
        let path = NSTemporaryDirectory() + "cadence-identity-\(UUID().uuidString).csv"
        try (lines + [""]).joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Reads a user-partitioned stream held in `text`, returning each user's step sum.
    static func userSums(_ text: String) throws -> [(String, Double)] {
        var bytes = Array(text.utf8)[...]
        var sums: [(String, Double)] = []
        try UserPartitionedCSVReader(name: "<test>").read(from: { buffer in
            let count = min(buffer.count, bytes.count)
            buffer.copyBytes(from: bytes.prefix(count))
            bytes = bytes.dropFirst(count)
            return count
        }) { user, store, _ in
            let statistics = try store.execute(StatisticsQuery(quantityType: .stepCount, options: .cumulativeSum))
            sums.append((user, try statistics.sumQuantity()?.doubleValue(for: .count) ?? 0))
        }
        return sums
    }

    @Test func stringsThatSwiftCallsEqualAreNotIdentical() {
        #expect(Self.composed == Self.decomposed)
        #expect(!Self.composed.isIdentical(to: Self.decomposed))
        #expect(Set([ExactString(Self.composed), ExactString(Self.decomposed)]).count == 2)
        #expect(["\u{212A}": 1].exactly("K") == nil && ["K": 1].exactly("K") == 1)
    }

    @Test func usersDifferingInNormalisationAreTwoUsers() throws {
        let stream = ["user," + Self.header,
                      Self.composed + ",stepCount,Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:05:00Z,100",
                      Self.decomposed + ",stepCount,Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:05:00Z,7", ""]
        let sums = try Self.userSums(stream.joined(separator: "\n"))
        #expect(sums.count == 2)
        #expect(sums.map(\.1) == [100, 7])
        #expect(sums.first.map { $0.0.isIdentical(to: Self.composed) } == true)
        #expect(sums.last.map { $0.0.isIdentical(to: Self.decomposed) } == true)
    }

    @Test func sourcesDifferingInNormalisationAreTwoSources() throws {
        let path = try Self.csvFile([Self.header,
                                     "stepCount,\(Self.composed),count,2024-01-01T10:00:00Z,2024-01-01T10:05:00Z,100",
                                     "stepCount,\(Self.decomposed),count,2024-01-01T10:00:00Z,2024-01-01T10:05:00Z,7"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = HealthStore.inMemory()
        #expect(try HealthDataImporter(store: store).importFile(atPath: path).imported == 2)
        let samples = try store.execute(SampleQuery(quantityType: .stepCount))
        let names = samples.map(\.source.name)
        #expect(names.contains { $0.isIdentical(to: Self.composed) } && names.contains { $0.isIdentical(to: Self.decomposed) })
        let statistics = try store.execute(StatisticsQuery(quantityType: .stepCount, options: [.cumulativeSum, .separateBySource]))
        #expect(statistics.sources?.count == 2)
        // Overlapping samples of two sources merge to the higher-priority one, not a sum of one source.
        let only = try store.execute(StatisticsQuery(quantityType: .stepCount,
                                                     quantitySamplePredicate: .sources(named: [Self.decomposed]),
                                                     options: .cumulativeSum))
        #expect(try only.sumQuantity()?.doubleValue(for: .count) == 7)
    }

    @Test func typeNamesMatchTheTableByteForByte() throws {
        // The Kelvin sign is canonically equivalent to `K`.
        let lookalike = "H\u{212A}QuantityTypeIdentifierStepCount"
        #expect(QuantityType.known(lookalike) == nil)
        #expect(QuantityType.known("HKQuantityTypeIdentifierStepCount") != nil)
        #expect(CategoryType.known("H\u{212A}CategoryTypeIdentifierSleepAnalysis") == nil)
        #expect(SampleKind(identifier: "H\u{212A}CategoryTypeIdentifierSleepAnalysis") == .quantity)
    }

    @Test func typesDifferingOnlyInNormalisationAreRefusedNotMerged() throws {
        let path = try Self.csvFile([Self.header,
                                     "HKQuantityTypeIdentifier\(Self.composed),Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:05:00Z,100",
                                     "HKQuantityTypeIdentifier\(Self.decomposed),Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:05:00Z,7"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = HealthStore.inMemory()
        #expect(throws: CadenceError.self) { try HealthDataImporter(store: store).importFile(atPath: path) }
    }

    @Test func metadataKeysDifferingOnlyInNormalisationAreRefused() throws {
        let path = try Self.csvFile([Self.header + ",metadata:\(Self.composed),metadata:\(Self.decomposed)",
                                     "stepCount,Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:05:00Z,100,a,b"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: CadenceError.self) { try HealthDataImporter(store: .inMemory()).importFile(atPath: path) }
        #expect(error?.message.contains("Unicode normalisation") == true, "\(String(describing: error))")
    }

    // MARK: Headers and values

    /// An empty file, and headers naming a column twice (with or without data rows).
    @Test(arguments: [[], ["type,type,sourceName,unit,startDate,endDate,value"],
                      [header + ",value", "stepCount,Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:05:00Z,1,2"]])
    func emptyFilesAndRepeatedColumnsAreErrors(lines: [String]) throws {
        let path = try Self.csvFile(lines)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: CadenceError.self) { try HealthDataImporter(store: .inMemory()).importFile(atPath: path) }
        #expect(error?.path == path)
        #expect(error?.message.contains(lines.isEmpty ? "empty" : "twice") == true, "\(String(describing: error))")
    }

    /// The user stream: empty, and a user column named twice.
    @Test(arguments: ["", "user,user," + header + "\n"])
    func userStreamWithoutASoundHeaderIsAnError(text: String) throws {
        #expect(throws: CadenceError.self) { try Self.userSums(text) }
    }

    /// A NUL (or another byte no number has) inside a value: `Double(String)` stops at a NUL.
    @Test(arguments: ["1\u{0}999", "7.5\u{0}e3", "1\u{0}", "12\u{1}"])
    func bytesNoNumberHasAreRejected(value: String) throws {
        let path = try Self.csvFile([Self.header, "stepCount,Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:05:00Z,\(value)"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = HealthStore.inMemory()
        let summary = try HealthDataImporter(store: store).importFile(atPath: path)
        #expect(summary.imported == 0)
        #expect(summary.rejections.first?.line == 2)
        #expect(summary.rejections.first?.reason.contains("cannot be in a number") == true)
        #expect(summary.rejections.first?.reason.contains("\u{0}") == false)
        #expect(throws: CadenceError.self) {
            try HealthDataImporter(store: .inMemory(), strict: true).importFile(atPath: path)
        }
        let streamed = ["user," + Self.header, "jane,stepCount,Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:05:00Z,\(value)", ""]
        var rejected = 0
        var bytes = Array(streamed.joined(separator: "\n").utf8)[...]
        try UserPartitionedCSVReader(name: "<test>").read(from: { buffer in
            let count = min(buffer.count, bytes.count)
            buffer.copyBytes(from: bytes.prefix(count))
            bytes = bytes.dropFirst(count)
            return count
        }) { _, _, summary in rejected += summary.rejected }
        #expect(rejected == 1)
    }
}
