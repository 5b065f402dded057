//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// Reading an `export.xml` or a CSV file in parallel segments must give exactly what one serial
/// reading gives: the same samples, counts, rejections with their lines, and errors.
@Suite("Importing a file in parallel segments")
struct SegmentedImportTests {
    /// What an import left: its summary (or error) and every stored sample.
    struct Outcome: Equatable {
        var summary: String
        var samples: [String]
    }

    static func importOutcome(_ path: String, parallelism: Int, segmentBytes: Int, strict: Bool = false) throws -> Outcome {
        let store = HealthStore.inMemory()
        var importer = HealthDataImporter(store: store, strict: strict, batchSize: 700, parallelism: parallelism)
        importer.segmentBytes = segmentBytes
        var summary: String
        do {
            let result = try importer.importFile(atPath: path)
            summary = [
                "imported \(result.imported) duplicates \(result.duplicates) rejected \(result.rejected)",
                "rejections \(result.rejections)", "unknown \(result.unknownTypes.sorted { $0.key < $1.key })",
                "unknown values \(result.unknownCategoryValues.sorted { $0.key < $1.key }) other \(result.otherRecords) inside \(result.correlationRecords)",
                "correlations \(result.correlations) workouts \(result.workouts) summaries \(result.activitySummaries)",
                "summaries stored \(try store.execute(ActivitySummaryQuery()))",
                "bytes \(result.bytesRead)",
            ].joined(separator: "; ")
        } catch {
            summary = "error: \(error)"
        }
        var samples: [String] = []
        for type in try store.info().types {
            guard let quantityType = QuantityType.known(type.identifier) ?? store.snapshotType(type.identifier) else { continue }
            for sample in try store.execute(SampleQuery(quantityType: quantityType)) {
                samples.append("\(sample.uuid) \(type.identifier) \(sample.source.name) \(sample.startDate.timeIntervalSince1970) "
                               + "\(sample.endDate.timeIntervalSince1970) \(sample.value) \(sample.metadata.sorted { $0.key < $1.key })")
            }
        }
        return Outcome(summary: summary, samples: samples.sorted())
    }

    /// A deterministic export with what makes a cut go wrong: records nested in correlations,
    /// metadata children, comments holding record-like lines, malformed records, a type Cadence
    /// does not know that first appears late, category records and workouts.
    static func awkwardExport(seed: UInt64, records: Int, malformed: Bool) -> String {
        var random = SeededRandom(seed: seed)
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout)*)>
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2024-03-01 10:00:00 +0100"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth=""/>

            """
        var minute = 0
        func date(_ minute: Int) -> String {
            String(format: "2024-01-%02d %02d:%02d:00 +0100", 1 + minute / 1440, minute / 60 % 24, minute % 60)
        }
        func record(_ indent: String, type: String, unit: String, value: String, source: String = "Watch",
                    children: String = "") -> String {
            let start = date(minute)
            let end = date(minute + 1)
            let attributes = "type=\"\(type)\" sourceName=\"\(source)\" unit=\"\(unit)\" creationDate=\"\(end)\" "
                + "startDate=\"\(start)\" endDate=\"\(end)\" value=\"\(value)\""
            return children.isEmpty ? "\(indent)<Record \(attributes)/>\n"
                : "\(indent)<Record \(attributes)>\n\(children)\(indent)</Record>\n"
        }
        for index in 0..<records {
            minute += 1 + Int(random.next() % 3)
            switch random.next() % 20 {
            case 0:
                text += " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Cuff\" "
                    + "startDate=\"\(date(minute))\" endDate=\"\(date(minute))\">\n"
                text += record("  ", type: "HKQuantityTypeIdentifierBloodPressureSystolic", unit: "mmHg", value: "120", source: "Cuff")
                text += record("  ", type: "HKQuantityTypeIdentifierBloodPressureDiastolic", unit: "mmHg", value: "80", source: "Cuff")
                text += " </Correlation>\n"
                text += record(" ", type: "HKQuantityTypeIdentifierBloodPressureSystolic", unit: "mmHg", value: "120", source: "Cuff")
            case 1:
                text += " <!-- a comment that looks like records:\n <Record type=\"HKQuantityTypeIdentifierStepCount\"\n"
                    + " <Record \n -->\n"
            case 2:
                text += record(" ", type: "HKCategoryTypeIdentifierSleepAnalysis", unit: "", value: "HKCategoryValueSleepAnalysisAsleep")
            case 3:
                text += " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\">\n"
                    + "  <WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"\(date(minute))\"/>\n </Workout>\n"
            case 4 where malformed:
                text += " <Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" startDate=\"\(date(minute))\" "
                    + "endDate=\"\(date(minute))\" value=\"3\"/>\n"
            case 5 where malformed:
                text += record(" ", type: "HKQuantityTypeIdentifierStepCount", unit: "furlong", value: "3")
            case 6 where index > records / 2:
                text += record(" ", type: "HKQuantityTypeIdentifierFancyNewMetric", unit: index % 2 == 0 ? "ms" : "s", value: "\(index)")
            case 7:
                let children = "  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"\(index % 3)\"/>\n"
                text += record(" ", type: "HKQuantityTypeIdentifierHeartRate", unit: "count/min", value: "\(60 + index % 50)",
                               children: children)
            default:
                text += record(" ", type: "HKQuantityTypeIdentifierStepCount", unit: "count", value: "\(index % 97)",
                               source: index % 3 == 0 ? "iPhone" : "Watch")
            }
        }
        return text + "</HealthData>\n"
    }

    static func write(_ text: String, in directory: URL, name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("Awkward exports, clean, malformed and truncated, import the same in segments as serially",
          arguments: [(UInt64(1), false), (2, true), (3, true)])
    func awkwardExports(seed: UInt64, malformed: Bool) throws {
        let text = Self.awkwardExport(seed: seed, records: 1_500, malformed: malformed)
        try Self.expectSegmentedLikeSerial(text, seed: seed, name: "export.xml")
    }

    /// Writes `text` whole and cut at a seeded place (under `name` with the extension kept), and
    /// checks that each file imports the same in segments of several sizes, and strictly, as serially.
    static func expectSegmentedLikeSerial(_ text: String, seed: UInt64, name: String) throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SeededRandom(seed: seed &+ 99)
        let cut = text.utf8.count / 2 + Int(random.next() % UInt64(text.utf8.count / 3))
        let files = [
            try write(text, in: directory, name: name),
            try write(String(decoding: text.utf8.prefix(cut), as: UTF8.self), in: directory, name: "truncated-" + name),
        ]
        for path in files {
            let serial = try importOutcome(path, parallelism: 1, segmentBytes: 1 << 20)
            #expect(serial.samples.count > 500)
            for (parallelism, segmentBytes) in [(2, 4_096), (3, 700), (2, 150)] {
                let segmented = try importOutcome(path, parallelism: parallelism, segmentBytes: segmentBytes)
                #expect(segmented == serial, "\(path), \(parallelism) cores, \(segmentBytes)-byte segments")
            }
            let strictSerial = try importOutcome(path, parallelism: 1, segmentBytes: 1 << 20, strict: true)
            let strictSegmented = try importOutcome(path, parallelism: 2, segmentBytes: 2_000, strict: true)
            #expect(strictSegmented == strictSerial)
        }
    }

    /// Damage that stops the reader (an end tag that does not match its start tag), in the middle
    /// of the file or after its last record: what was read is the bytes before the damaged tag,
    /// whether the file was read serially, in one block, or in segments read ahead of it.
    @Test("Damage that stops the reader: the bytes before it are what was read, serially and in segments",
          arguments: [false, true])
    func bytesReadBeforeDamage(damageAtEnd: Bool) throws {
        let text = Self.awkwardExport(seed: 4, records: 300, malformed: false)
        let prefix: Substring, damage: String, suffix: Substring
        if damageAtEnd {
            (prefix, damage, suffix) = (text.dropLast("</HealthData>\n".count), "</HealthDat>\n", "")
        } else {
            // Before a top-level record (not one in a comment, which has no source) past the middle.
            let middle = text.index(text.startIndex, offsetBy: text.count / 2)
            let next = try #require(text.range(of: "\n <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=",
                                               range: middle..<text.endIndex))
            let lineStart = text.index(after: next.lowerBound)
            (prefix, damage, suffix) = (text[..<lineStart], " </Record>\n", text[lineStart...])
        }
        let damaged = String(prefix) + damage + String(suffix)
        // The bytes before the damaged tag's '<'.
        let expected = prefix.utf8.count + damage.prefix { $0 == " " }.count
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.write(damaged, in: directory, name: "export.xml")
        for (parallelism, segmentBytes) in [(1, 1 << 20), (2, 4_096), (3, 700), (2, 150)] {
            var importer = HealthDataImporter(store: .inMemory(), batchSize: 700, parallelism: parallelism)
            importer.segmentBytes = segmentBytes
            let summary = try importer.importFile(atPath: path)
            #expect(summary.stoppedAt != nil)
            #expect(summary.bytesRead == expected, "\(parallelism) cores, \(segmentBytes)-byte segments")
        }
        // The reader alone reports the same, in one block or in small pieces.
        for pieceSize in [damaged.utf8.count, 97, 1] {
            var reader = ExportXMLReader(path: "export.xml")
            let bytes = Array(damaged.utf8)
            var offset = 0
            #expect(throws: CadenceError.self) {
                while offset < bytes.count {
                    let piece = bytes[offset..<min(offset + pieceSize, bytes.count)]
                    offset += piece.count
                    try piece.withUnsafeBytes { try reader.feed($0) { _ in } }
                }
            }
            #expect(reader.summary.byteCount == expected, "pieces of \(pieceSize) bytes")
        }
    }

    @Test("The real exports import the same in segments as serially", arguments: ImportFixtures.exportNames)
    func realExports(name: String) throws {
        let path = try ImportFixtures.appleHealthFile(name)
        let serial = try Self.importOutcome(path, parallelism: 1, segmentBytes: 1 << 20)
        let segmented = try Self.importOutcome(path, parallelism: 2, segmentBytes: name.hasPrefix("hkimport") ? 64 << 10 : 500)
        #expect(segmented == serial)
    }

    @Test("Segments are really read in parallel: a clean file is taken in whole segments")
    func segmentsAreUsed() throws {
        let text = Self.awkwardExport(seed: 7, records: 400, malformed: false)
        let (reader, collector, summary, serialCollector, serialSummary, windowsRead) = try Self.readInWindows(
            text, path: "export.xml", reader: ExportXMLReader(path: "export.xml"))
        #expect(windowsRead > 5)
        #expect(summary == serialSummary)
        #expect(collector.records == serialCollector.records && collector.pending == serialCollector.pending)
        #expect(reader.segmentsRead > windowsRead, "segments read in parallel: \(reader.segmentsRead)")
    }
}

extension SegmentedImportTests {
    /// A deterministic import CSV with what makes a cut at a line start go wrong: quoted fields
    /// holding commas, quotes and line breaks, CRLF and LF lines, blank lines, optional columns
    /// and metadata, look-alike rows, rows that are rejected, a type Cadence does not know that
    /// first appears late, and (when `malformed`) an unterminated quote at the end.
    static func awkwardCSV(seed: UInt64, rows: Int, malformed: Bool) -> String {
        var random = SeededRandom(seed: seed)
        var text = "\u{FEFF}type,sourceName,unit,startDate,endDate,value,sourceVersion,device,metadata:Note\r\n"
        var minute = 0
        func date(_ minute: Int) -> String {
            String(format: "2024-01-%02dT%02d:%02d:00+01:00", 1 + minute / 1440, minute / 60 % 24, minute % 60)
        }
        for index in 0..<rows {
            minute += Int(random.next() % 3)
            let lineBreak = random.next() % 5 == 0 ? "\r\n" : "\n"
            var type = "HKQuantityTypeIdentifierHeartRate", unit = "count/min", value = String(60 + random.next() % 80)
            var source = "Watch", note = ""
            switch random.next() % 12 {
            case 0: source = "\"Jane's Watch, \"\"Series 9\"\"\""
            case 1: note = "\"line one\nline two, with a comma\""
            case 2: (type, unit, value) = ("stepCount", "count", "12")
            case 3: value = "not a number"
            case 4 where index > rows / 2: (type, unit, value) = ("HKQuantityTypeIdentifierMadeUp", "count", "3")
            case 5: text += lineBreak
            default: break
            }
            text += "\(type),\(source),\(unit),\(date(minute)),\(date(minute + 1)),\(value),\(index % 7 == 0 ? "10.1" : ""),,\(note)"
                + lineBreak
        }
        if malformed { text += "stepCount,Phone,count,\(date(minute)),\(date(minute)),\"5" }
        return text
    }

    @Test("Awkward CSV files, clean, malformed and truncated, import the same in segments as serially",
          arguments: [(UInt64(11), false), (12, true), (13, false)])
    func awkwardCSVFiles(seed: UInt64, malformed: Bool) throws {
        try Self.expectSegmentedLikeSerial(Self.awkwardCSV(seed: seed, rows: 1_500, malformed: malformed),
                                           seed: seed, name: "samples.csv")
    }

    @Test("A clean CSV file is read in whole segments, in parallel")
    func csvSegmentsAreUsed() throws {
        let text = Self.awkwardCSV(seed: 5, rows: 600, malformed: false)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("not a number") && !$0.contains("line") && !$0.contains("MadeUp") }
            .joined(separator: "\n")
        let (reader, collector, summary, serialCollector, serialSummary, windowsRead) = try Self.readInWindows(
            text, path: "samples.csv", reader: try CSVImportReader(path: "samples.csv"))
        #expect(windowsRead > 5)
        #expect(summary == serialSummary)
        #expect(collector.summary.rejected == 0)
        #expect(collector.records == serialCollector.records && collector.pending == serialCollector.pending)
        #expect(reader.segmentsRead > windowsRead, "segments read in parallel: \(reader.segmentsRead)")
    }
}

/// Saves run on a thread of their own while the file is read on; their failures must still stop
/// the import with the store's error, and keep what was saved before.
@Suite("Saving in the background")
struct BackgroundSaveTests {
    /// Ten batches of 50 heart-rate samples each, on distinct minutes.
    static func batches() throws -> [QuantitySampleBatch] {
        try (0..<10).map { number in
            var batch = QuantitySampleBatch(type: .heartRate)
            let provenance = batch.addProvenance(Provenance(source: Source(name: "Watch")))
            for row in 0..<50 {
                let start = Timestamp(1_704_067_200_000_000) + Timestamp(number * 50 + row) * 60_000_000
                try batch.append(startTimestamp: start, endTimestamp: start, value: 60, provenanceIndex: provenance)
            }
            return batch
        }
    }

    static func storedSamples(_ store: HealthStore) throws -> Int { try store.info().types.reduce(0) { $0 + $1.samples } }

    @Test("Saves land in order and are counted, with the head flushed on the way")
    func savesLand() throws {
        let store = HealthStore.inMemory()
        let saver = BackgroundSaver(store: store, flushInterval: 120)
        for batch in try Self.batches() + Self.batches() { try saver.save([batch]) }
        let summary = try saver.finish()
        #expect(summary.saved == 500 && summary.duplicates == 500)
        #expect(try Self.storedSamples(store) == 500)
        #expect(try store.info().types.allSatisfy { $0.chunks > 0 })
    }

    @Test("The head is flushed once the saves hold enough bytes, however few samples they are", arguments: [1, Int.max])
    func flushesByBytes(flushBytes: Int) throws {
        let store = HealthStore.inMemory()
        let saver = BackgroundSaver(store: store, flushInterval: .max, flushBytes: flushBytes)
        for batch in try Self.batches() { try saver.save([batch]) }
        try saver.finish()
        #expect(try Self.storedSamples(store) == 500)
        #expect(try store.info().types.allSatisfy { ($0.chunks > 0) == (flushBytes == 1) })
    }

    @Test("A save that fails is reported by the next call; the saves before it stay, none after it is made",
          arguments: [3, 6])
    func failingSave(failingWrite: Int) throws {
        let fileSystem = MemoryFileSystem()
        let faulty = FaultInjectingFileSystem(wrapping: fileSystem, failing: .noSpace, atCall: failingWrite)
        let store = try HealthStore.open(at: "/store", options: HealthStore.Options(), fileSystem: faulty)
        let saver = BackgroundSaver(store: store, flushInterval: .max)
        var accepted = 0
        var thrown: (any Error)?
        do {
            for batch in try Self.batches() {
                try saver.save([batch])
                accepted += 1
            }
            try saver.finish()
        } catch {
            thrown = error
        }
        #expect((thrown as? CadenceError)?.code == .io)
        #expect(faulty.injection?.operation == .append)
        #expect(accepted < 10)
        try? store.close()
        // The save that failed was the last one started (the next call reported it): the ones
        // before it are stored, it is absent (its log record was never written).
        let reopened = try HealthStore.open(at: "/store", options: HealthStore.Options(), fileSystem: fileSystem)
        #expect(try Self.storedSamples(reopened) == 50 * (accepted - 1))
    }
}

extension SegmentedImportTests {
    /// Reads `text` twice from fresh copies of `reader`: handed over in 3,000-byte windows to a
    /// reader that cuts 1,000-byte segments across two workers, and serially in one piece.
    static func readInWindows<Reader: SegmentableReader>(_ text: String, path: String, reader: Reader) throws
        -> (reader: SegmentedReader<Reader>, collector: SampleCollector, summary: Reader.Summary,
            serialCollector: SampleCollector, serialSummary: Reader.Summary, windowsRead: Int)
    {
        var collector = SampleCollector(store: HealthStore.inMemory(), path: path, dryRun: false)
        var segmented = SegmentedReader(reader: reader, parallelism: 2, segmentBytes: 1_000)
        var serialReader = reader
        var serialCollector = SampleCollector(store: HealthStore.inMemory(), path: path, dryRun: false)
        let bytes = Array(text.utf8)
        var windowsRead = 0
        for block in stride(from: 0, to: bytes.count, by: 3_000) {
            try bytes[block..<min(bytes.count, block + 3_000)].withUnsafeBytes { try segmented.feed($0, into: &collector) }
            windowsRead += 1
        }
        let summary = try segmented.finish(into: &collector)
        try bytes.withUnsafeBytes { try serialReader.feed($0, into: &serialCollector) }
        let serialSummary = try serialReader.finish(into: &serialCollector)
        return (segmented, collector, summary, serialCollector, serialSummary, windowsRead)
    }
}
