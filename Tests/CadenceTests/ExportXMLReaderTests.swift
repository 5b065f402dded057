//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// Counts taken from the text of an export by a plain line scan, without the reader.
private struct TextScan {
    var topLevelRecords = 0
    var correlationRecords = 0
    var topLevelTypes: [String: Int] = [:]
    var workouts = 0
    var correlations = 0
    var metadataEntries = 0

    init(_ text: String) {
        var insideCorrelation = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.contains("<Correlation ") { insideCorrelation = true; correlations += 1 }
            if line.contains("</Correlation>") { insideCorrelation = false }
            if line.contains("<Workout ") { workouts += 1 }
            if line.contains("<MetadataEntry ") { metadataEntries += 1 }
            guard let start = line.range(of: "<Record type=\"") else { continue }
            let type = String(line[start.upperBound...].prefix { $0 != "\"" })
            if insideCorrelation {
                correlationRecords += 1
            } else {
                topLevelRecords += 1
                topLevelTypes[type, default: 0] += 1
            }
        }
    }
}

/// The offsets just past the end of each `<Record>` element, found without the reader.
private func recordEndOffsets(_ bytes: [UInt8]) -> [Int] {
    let open = Array("<Record ".utf8)
    let close = Array("</Record>".utf8)
    var ends: [Int] = []
    var index = 0
    func find(_ pattern: [UInt8], from start: Int) -> Int? {
        guard start + pattern.count <= bytes.count else { return nil }
        var position = start
        while position + pattern.count <= bytes.count {
            if bytes[position] == pattern[0] && bytes[position..<(position + pattern.count)].elementsEqual(pattern) {
                return position
            }
            position += 1
        }
        return nil
    }
    while let start = find(open, from: index) {
        guard let greater = bytes[start...].firstIndex(of: UInt8(ascii: ">")) else { break }
        if bytes[greater - 1] == UInt8(ascii: "/") {
            ends.append(greater + 1)
            index = greater + 1
        } else if let closing = find(close, from: greater) {
            ends.append(closing + close.count)
            index = closing + close.count
        } else {
            break
        }
    }
    return ends
}

@Suite("ExportXMLReader on real exports")
struct ExportXMLReaderRealExportTests {
    @Test("hkimport-export.xml: every record, workout and correlation, counted independently")
    func hkimportCounts() throws {
        let path = try ImportFixtures.appleHealthFile("hkimport-export.xml")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let scan = TextScan(text)
        // The README's documented counts, and the same counts from a plain text scan.
        #expect(scan.topLevelRecords == 10_939)
        #expect(scan.correlationRecords == 162)
        #expect(scan.workouts == 61)
        #expect(scan.correlations == 34)
        #expect(scan.metadataEntries == 1_934)

        var records: [ExportRecord] = []
        let summary = try ExportXMLReader.read(fileAt: path) { records.append($0) }
        let topLevel = records.filter { !$0.isInsideCorrelation }
        #expect(summary.recordCount == 11_101)
        #expect(summary.deliveredRecordCount == 11_101)
        #expect(summary.correlationRecordCount == 162)
        #expect(summary.malformedRecordCount == 0)
        #expect(summary.issues.isEmpty)
        #expect(summary.workoutCount == 61)
        #expect(summary.correlationCount == 34)
        #expect(summary.activitySummaryCount == 0)
        #expect(summary.metadataEntryCount == 1_934)
        #expect(summary.count(of: .record) == 11_101)
        #expect(summary.count(of: .workout) == 61)
        #expect(summary.count(of: .correlation) == 34)
        #expect(summary.byteCount == 3_832_773)
        #expect(summary.lineCount == text.utf8.filter { $0 == 0x0A }.count + 1)
        #expect(topLevel.count == scan.topLevelRecords)
        #expect(records.count - topLevel.count == scan.correlationRecords)

        var types: [String: Int] = [:]
        for record in topLevel { types[record.type, default: 0] += 1 }
        #expect(types == scan.topLevelTypes)
        #expect(types["HKQuantityTypeIdentifierStepCount"] == 3_980)
        #expect(types["HKQuantityTypeIdentifierDistanceWalkingRunning"] == 3_556)
        #expect(types["HKQuantityTypeIdentifierHeartRate"] == 2_177)
        #expect(types.count == 42)
        let categories = records.filter { $0.type.hasPrefix("HKCategoryTypeIdentifier") }.count
        #expect(summary.categoryRecordCount == categories)
        #expect(categories > 0)

        // Every record's line is the line where its tag starts.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for record in records {
            #expect(lines[record.line - 1].contains("<Record type=\"\(record.type)\""))
        }
    }

    @Test("hkimport-export.xml: U+2019, decoded entities and metadata on the right record")
    func hkimportQuirks() throws {
        let path = try ImportFixtures.appleHealthFile("hkimport-export.xml")
        var records: [ExportRecord] = []
        _ = try ExportXMLReader.read(fileAt: path) { records.append($0) }

        let iPhone = try #require(records.first { $0.line == 2486 })
        #expect(iPhone.sourceName == "Jonathan\u{2019}s iPhone")
        #expect(iPhone.sourceName.unicodeScalars.contains("\u{2019}"))
        #expect(iPhone.device == "<<HKDevice: 0x174294140>, name:iPhone, manufacturer:Apple, model:iPhone, "
            + "hardware:iPhone8,1, software:10.0>")
        #expect(iPhone.value == "19")
        #expect(iPhone.unit == "count")
        #expect(iPhone.sourceVersion == "10.0")
        #expect(iPhone.creationDate == "2017-01-22 20:03:37 +0200")
        #expect(iPhone.startDate == "2017-01-22 18:57:52 +0200")
        #expect(iPhone.endDate == "2017-01-22 19:04:03 +0200")
        #expect(iPhone.metadata.isEmpty)
        #expect(records.filter { $0.sourceName == "Jonathan\u{2019}s iPhone" }.count > 1_000)

        // The first correlation (line 13195) carries five metadata entries of its own; its
        // records carry only theirs.
        let potassium = try #require(records.first { $0.line == 13_201 })
        #expect(potassium.type == "HKQuantityTypeIdentifierDietaryPotassium")
        #expect(potassium.isInsideCorrelation)
        #expect(potassium.metadata.count == 1)
        #expect(potassium.metadataValue(forKey: "HKFoodType") == "pizza")
        #expect(!records.contains { record in
            record.metadata.contains { $0.value.contains("pizza chain 14\"") }
        })
        // Apple writes correlated records at top level too: the same sample appears twice.
        let twins = records.filter {
            $0.type == potassium.type && $0.startDate == potassium.startDate && $0.value == potassium.value
        }
        #expect(twins.count == 2)
        #expect(twins.filter(\.isInsideCorrelation).count == 1)
    }

    @Test("dogsheep-export.xml: U+00A0 in the source name, metadata in order, entities decoded")
    func dogsheepQuirks() throws {
        let path = try ImportFixtures.appleHealthFile("dogsheep-export.xml")
        var records: [ExportRecord] = []
        let summary = try ExportXMLReader.read(fileAt: path) { records.append($0) }
        #expect(records.count == 2)
        #expect(summary.workoutCount == 1)
        #expect(summary.activitySummaryCount == 2)

        let bodyMassIndex = try #require(records.first)
        #expect(bodyMassIndex.type == "HKQuantityTypeIdentifierBodyMassIndex")
        #expect(bodyMassIndex.sourceName == "Health Mate")
        #expect(bodyMassIndex.metadata.map(\.key) == [
            "Health Mate App Version", "Withings User Identifier", "Modified Date", "Withings Link",
            "HKWasUserEntered",
        ])
        #expect(bodyMassIndex.metadataValue(forKey: "Withings Link")
            == "withings-bd2://timeline/measure?userid=12345&date=482685932&type=1")

        let heartRate = try #require(records.last)
        #expect(heartRate.type == "HKQuantityTypeIdentifierHeartRate")
        #expect(Array(heartRate.sourceName.unicodeScalars) == Array("Apple\u{00A0}Watch".unicodeScalars))
        #expect(heartRate.sourceName != "Apple Watch")
        #expect(heartRate.unit == "count/min")
        #expect(heartRate.value == "72")
        #expect(heartRate.metadata.count == 1)
        #expect(heartRate.metadataValue(forKey: "HKMetadataKeyHeartRateMotionContext") == "0")
        #expect(heartRate.device?.hasPrefix("<<HKDevice: 0x282a45810>, name:Apple Watch") == true)
    }

    @Test("All four shared exports parse", arguments: [
        ("hkimport-export.xml", 11_101, 61, 0),
        ("tdda-export6s3sample.xml", 15, 1, 2),
        ("dogsheep-export.xml", 2, 1, 2),
        ("alxdrcirilo-export.xml", 8, 0, 0),
    ])
    func allExportsParse(name: String, records: Int, workouts: Int, activitySummaries: Int) throws {
        let path = try ImportFixtures.appleHealthFile(name)
        var delivered = 0
        let summary = try ExportXMLReader.read(fileAt: path) { _ in delivered += 1 }
        #expect(delivered == records)
        #expect(summary.recordCount == records)
        #expect(summary.malformedRecordCount == 0)
        #expect(summary.workoutCount == workouts)
        #expect(summary.activitySummaryCount == activitySummaries)
        #expect(summary.repairedValueCount == 0)
    }

    @Test("alxdrcirilo-export.xml: tags over several lines get the line where they start")
    func multiLineTags() throws {
        let path = try ImportFixtures.appleHealthFile("alxdrcirilo-export.xml")
        let lines = try String(contentsOfFile: path, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        var records: [ExportRecord] = []
        _ = try ExportXMLReader.read(fileAt: path) { records.append($0) }
        #expect(records.count == 8)
        for record in records {
            #expect(lines[record.line - 1].contains("<Record type=\"\(record.type)\""))
        }
        #expect(records.first?.sourceName == "Alexandre's Apple Watch")
        #expect(records.first?.metadataValue(forKey: "HKMetadataKeyHeartRateMotionContext") == "0")
        #expect(records.dropFirst().first?.metadata.isEmpty == true)
    }

    @Test("Blocks of any size give the same records", arguments: [1, 2, 3, 7, 64, 4_093])
    func blockSizeDoesNotMatter(blockSize: Int) throws {
        for name in ["dogsheep-export.xml", "alxdrcirilo-export.xml", "tdda-export6s3sample.xml"] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ImportFixtures.appleHealthFile(name))))
            let whole = ImportFixtures.readXML(bytes)
            let pieces = ImportFixtures.readXML(bytes, blockSize: blockSize)
            #expect(whole.error == nil)
            #expect(pieces.error == nil)
            #expect(pieces.records.map(ImportFixtures.fingerprint) == whole.records.map(ImportFixtures.fingerprint))
            #expect(pieces.summary == whole.summary)
        }
    }

    @Test("hkimport-export.xml read in odd blocks gives the same records", arguments: [997, 65_521])
    func largeFileBlockSizes(blockSize: Int) throws {
        let path = try ImportFixtures.appleHealthFile("hkimport-export.xml")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let whole = ImportFixtures.readXML(bytes)
        let pieces = ImportFixtures.readXML(bytes, blockSize: blockSize)
        #expect(pieces.error == nil)
        #expect(pieces.records.count == 11_101)
        #expect(pieces.records.map(ImportFixtures.fingerprint) == whole.records.map(ImportFixtures.fingerprint))
        #expect(pieces.summary == whole.summary)
    }

    @Test("A truncated export delivers the records before the cut, then says it is truncated")
    func truncatedRealExports() throws {
        for name in ["dogsheep-export.xml", "alxdrcirilo-export.xml", "tdda-export6s3sample.xml", "hkimport-export.xml"] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ImportFixtures.appleHealthFile(name))))
            let ends = recordEndOffsets(bytes)
            let rootEnd = try #require(bytes.lastIndex(of: UInt8(ascii: ">"))) + 1
            let step = bytes.count > 100_000 ? bytes.count / 11 : (bytes.count > 5_000 ? 3 : 1)
            var cut = 0
            while cut < bytes.count {
                let outcome = ImportFixtures.readXML(Array(bytes[0..<cut]), blockSize: 8_192)
                #expect(outcome.records.count == ends.filter { $0 <= cut }.count, "\(name) cut at \(cut)")
                if cut < rootEnd {
                    let error = try #require(outcome.cadenceError, "\(name) cut at \(cut)")
                    #expect(error.code == .malformedInput)
                    #expect(error.message.contains("truncated"), "\(name) cut at \(cut): \(error.message)")
                    #expect(error.path == "test.xml")
                    #expect(error.line != nil)
                } else {
                    #expect(outcome.error == nil)
                }
                cut += step
            }
        }
    }
}

@Suite("ExportXMLReader on hostile and broken input")
struct ExportXMLReaderHostileTests {
    @Test("Billion laughs: entities are never expanded")
    func billionLaughs() throws {
        var doctype = "<!DOCTYPE HealthData [\n <!ENTITY lol \"lol\">\n"
        doctype += " <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
        for level in 2...9 {
            let previous = "&lol\(level - 1);"
            doctype += " <!ENTITY lol\(level) \"\(String(repeating: previous, count: 10))\">\n"
        }
        doctype += "]>\n"
        let body = ImportFixtures.record(source: "&lol9;") + "\n<lolz>&lol9;</lolz>\n" + ImportFixtures.record(value: "7")
        let outcome = ImportFixtures.readXML(ImportFixtures.export(body, doctype: doctype))
        #expect(outcome.error == nil)
        #expect(outcome.records.count == 1)
        #expect(outcome.records.first?.value == "7")
        let summary = try #require(outcome.summary)
        #expect(summary.malformedRecordCount == 1)
        #expect(summary.issues.first?.reason.contains("&lol9;") == true)
        #expect(summary.issues.first?.reason.contains("never expanded") == true)
    }

    @Test("External entities are never read")
    func externalEntity() throws {
        let doctype = """
            <!DOCTYPE HealthData [
            <!ENTITY xxe SYSTEM "file:///etc/passwd">
            <!ENTITY % remote SYSTEM "http://127.0.0.1:1/evil.dtd">
            %remote;
            ]>

            """
        let body = ImportFixtures.record(source: "&xxe;") + "\n" + ImportFixtures.record(value: "&xxe;")
            + "\n" + ImportFixtures.record(value: "3")
        let outcome = ImportFixtures.readXML(ImportFixtures.export(body, doctype: doctype))
        #expect(outcome.error == nil)
        #expect(outcome.records.map(\.value) == ["3"])
        #expect(outcome.summary?.malformedRecordCount == 2)
        #expect(!outcome.records.contains { ($0.value ?? "").contains("root:") || $0.sourceName.contains("root:") })
    }

    @Test("A DTD with quoted '>', comments and a missing '>' (iOS 16) is skipped")
    func brokenDoctype() throws {
        let doctype = """
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 12 -> with ] and > and " inside -->
            <!ENTITY arrow "a > b ] c">
            <!ATTLIST Record note CDATA '>'>
            <?pi ] > ?>
            <!ATTLIST VisionPrescription
              type             CDATA #REQUIRED
              brand            CDATA #IMPLIED
            <!ELEMENT Prism EMPTY>
            <!ATTLIST Prism
              amount CDATA #REQUIRED
            >
            ]>

            """
        let outcome = ImportFixtures.readXML(ImportFixtures.export(
            ImportFixtures.record(value: "1") + "\n" + ImportFixtures.record(value: "2"), doctype: doctype))
        #expect(outcome.error == nil)
        #expect(outcome.records.map(\.value) == ["1", "2"])
        #expect(outcome.records.first?.line == 17)
    }

    @Test("Comments, CDATA and processing instructions in the body are skipped")
    func skippedMarkup() throws {
        let body = """
            <!-- <Record type="HKQuantityTypeIdentifierStepCount" sourceName="x" startDate="a" endDate="b"/> -->
            <![CDATA[ <Record type="HKQuantityTypeIdentifierStepCount" sourceName="x" startDate="a" endDate="b"/> ]]>
            <?processing <Record/> ?>
            <!---->
            \(ImportFixtures.record(value: "5"))
            """
        let outcome = ImportFixtures.readXML(ImportFixtures.export(body))
        #expect(outcome.error == nil)
        #expect(outcome.records.map(\.value) == ["5"])
        #expect(outcome.records.first?.line == 8)
    }

    @Test("Elements nested too deep stop reading with hostileInput")
    func deepNesting() throws {
        let body = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        let outcome = ImportFixtures.readXML(ImportFixtures.export(ImportFixtures.record() + "\n" + body))
        #expect(outcome.cadenceError?.code == .hostileInput)
        #expect(outcome.records.count == 1)
        let shallow = ImportFixtures.readXML(
            ImportFixtures.export(body), limits: ExportXMLReader.Limits(maxDepth: 200))
        #expect(shallow.error == nil)
    }

    @Test("A 5 MB attribute makes its record malformed; the rest keep flowing", arguments: [16 << 20, 1 << 20, 4_096])
    func gigantic(blockSize: Int) throws {
        let huge = String(repeating: "9", count: 5_000_000)
        let body = ImportFixtures.record(value: "1") + "\n" + ImportFixtures.record(value: huge) + "\n"
            + ImportFixtures.record(value: "3", extra: " note=\"\(String(repeating: "x", count: 2_000_000))\"") + "\n"
            + ImportFixtures.record(value: "4")
        let outcome = ImportFixtures.readXML(ImportFixtures.export(body), blockSize: blockSize)
        #expect(outcome.error == nil)
        #expect(outcome.records.map(\.value) == ["1", "4"])
        #expect(outcome.records.map(\.line) == [4, 7])
        let summary = try #require(outcome.summary)
        #expect(summary.malformedRecordCount == 2)
        #expect(summary.issues.map(\.line) == [5, 6])
        #expect(summary.issues.first?.reason.contains("longer than 4194304 bytes") == true)
        #expect(summary.issues.last?.reason.contains("note is longer than 1048576 bytes") == true)
    }

    @Test("A tag that never closes stops reading with hostileInput past maxMarkupBytes")
    func runawayTag() throws {
        let limits = ExportXMLReader.Limits(maxTagBytes: 4_096, maxMarkupBytes: 100_000)
        let open = ImportFixtures.export(ImportFixtures.record() + "\n <Record type=\"" + String(repeating: "x", count: 200_000))
        let outcome = ImportFixtures.readXML(open, blockSize: 1_000, limits: limits)
        #expect(outcome.cadenceError?.code == .hostileInput)
        #expect(outcome.records.count == 1)
        let comment = ImportFixtures.readXML("<a><!--" + String(repeating: "-", count: 200_000), limits: limits)
        #expect(comment.cadenceError?.code == .hostileInput)
    }

    @Test("Invalid UTF-8 and control characters become U+FFFD and are counted")
    func invalidUTF8() throws {
        var bytes = Array(ImportFixtures.export(ImportFixtures.record(source: "Bad@@Name", value: "1\u{0B}2")).utf8)
        let marker = Array("@@".utf8)
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: marker) })
        bytes.replaceSubrange(at..<(at + 2), with: [0xFF, 0xC3])
        let outcome = ImportFixtures.readXML(bytes)
        #expect(outcome.error == nil)
        let record = try #require(outcome.records.first)
        #expect(record.sourceName == "Bad\u{FFFD}\u{FFFD}Name")
        #expect(record.value == "1\u{FFFD}2")
        #expect(outcome.summary?.repairedValueCount == 2)
    }

    @Test("Numeric references decode; invalid code points make the record malformed")
    func characterReferences() throws {
        let body = [
            ImportFixtures.record(source: "Jonathan&#8217;s &#x2019;iPhone&#x1F600;", value: "1"),
            ImportFixtures.record(value: "&#0;"),
            ImportFixtures.record(value: "&#xD800;"),
            ImportFixtures.record(value: "&#x110000;"),
            ImportFixtures.record(value: "&#xFFFE;"),
            ImportFixtures.record(value: "&#;"),
            ImportFixtures.record(value: "a & b"),
            ImportFixtures.record(value: "&lt;&gt;&amp;&quot;&apos;"),
        ].joined(separator: "\n")
        let outcome = ImportFixtures.readXML(ImportFixtures.export(body))
        #expect(outcome.error == nil)
        #expect(outcome.records.map(\.sourceName).first == "Jonathan\u{2019}s \u{2019}iPhone\u{1F600}")
        #expect(outcome.records.map(\.value) == ["1", "<>&\"'"])
        #expect(outcome.summary?.malformedRecordCount == 6)
    }

    @Test("Attribute whitespace is normalized as XML asks; &#10; stays a line feed")
    func attributeNormalization() throws {
        let record = ImportFixtures.record(source: "two\nlines\r\nand\ttab", value: "a&#10;b")
        let outcome = ImportFixtures.readXML(ImportFixtures.export(record))
        #expect(outcome.records.first?.sourceName == "two lines and tab")
        #expect(outcome.records.first?.value == "a\nb")
        #expect(outcome.summary?.lineCount == 8)
    }

    @Test("Records missing required attributes are counted with their line; the rest flow")
    func missingAttributes() throws {
        let body = """
             <Record sourceName="a" startDate="s" endDate="e"/>
             <Record type="HKQuantityTypeIdentifierStepCount" startDate="s" endDate="e"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="a" endDate="e">
              <MetadataEntry key="k" value="v"/>
             </Record>
             <Record type="" sourceName="a" startDate="s" endDate="e"/>
             <Record type="HKQuantityTypeIdentifierStepCount" type="x" sourceName="a" startDate="s" endDate="e"/>
            \(ImportFixtures.record(value: "ok"))
            """
        let outcome = ImportFixtures.readXML(ImportFixtures.export(body))
        #expect(outcome.error == nil)
        #expect(outcome.records.map(\.value) == ["ok"])
        let summary = try #require(outcome.summary)
        #expect(summary.malformedRecordCount == 5)
        #expect(summary.issues.map(\.line) == [4, 5, 6, 9, 10])
        #expect(summary.issues[0].reason.contains("no type attribute"))
        #expect(summary.issues[1].reason.contains("no sourceName attribute"))
        #expect(summary.issues[2].reason.contains("no startDate attribute"))
        #expect(summary.issues[3].reason.contains("type attribute is empty"))
        #expect(summary.issues[4].reason.contains("appears twice"))
    }

    @Test("Unknown elements and attributes are ignored; iOS 8 'source' and spaced names are read")
    func unknownAndOldSyntax() throws {
        let body = """
             <Unknown a="1"><Nested/></Unknown>
             <Record type="HKQuantityTypeIdentifierBodyFatPercentage" source="Withings" unit="%" startDate="s" endDate="e" Health Mate App Version="2.6.0" extra='x"y' value="0.2"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="a" startDate="s" endDate="e" value="HKCategoryValueSleepAnalysisAsleep">
              <MetadataEntry key="k" value="v" unknown="u"/>
              <HeartRateVariabilityMetadataList><InstantaneousBeatsPerMinute bpm="60" time="t"/></HeartRateVariabilityMetadataList>
             </Record>
            """
        let outcome = ImportFixtures.readXML(ImportFixtures.export(body))
        #expect(outcome.error == nil)
        #expect(outcome.records.map(\.sourceName) == ["Withings", "a"])
        #expect(outcome.records.first?.value == "0.2")
        #expect(outcome.records.last?.metadata.count == 1)
        #expect(outcome.summary?.categoryRecordCount == 1)
    }

    @Test("A mismatched end tag stops reading with malformedInput and its line")
    func mismatchedEndTag() throws {
        let outcome = ImportFixtures.readXML(ImportFixtures.export(ImportFixtures.record() + "\n <Workout>\n </Record>"))
        #expect(outcome.cadenceError?.code == .malformedInput)
        #expect(outcome.cadenceError?.line == 6)
        #expect(outcome.records.count == 1)
    }

    @Test("UTF-16, empty and non-XML input are refused clearly")
    func notUTF8() throws {
        let utf16 = ImportFixtures.readXML([0xFF, 0xFE, 0x3C, 0x00])
        #expect(utf16.cadenceError?.code == .malformedInput)
        #expect(utf16.cadenceError?.message.contains("UTF-16") == true)
        let empty = ImportFixtures.readXML([UInt8]())
        #expect(empty.cadenceError?.code == .malformedInput)
        let text = ImportFixtures.readXML("just some text, no markup")
        #expect(text.cadenceError?.code == .malformedInput)
        let bom = ImportFixtures.readXML([0xEF, 0xBB, 0xBF] + Array(ImportFixtures.export(ImportFixtures.record()).utf8))
        #expect(bom.error == nil)
        #expect(bom.records.count == 1)
    }

    @Test("An error from the handler comes out unchanged and finishes the reader")
    func handlerError() throws {
        struct Stop: Error {}
        var reader = ExportXMLReader()
        let bytes = Array(ImportFixtures.export(ImportFixtures.record()).utf8)
        #expect(throws: Stop.self) {
            try bytes.withUnsafeBytes { try reader.feed($0) { _ in throw Stop() } }
        }
        #expect(throws: CadenceError.self) {
            try bytes.withUnsafeBytes { try reader.feed($0) { _ in } }
        }
    }

    @Test("read(fileAt:) names a missing file, and points a zip at read(zipAt:)")
    func fileErrors() throws {
        #expect {
            _ = try ExportXMLReader.read(fileAt: "/nonexistent/export.xml") { _ in }
        } throws: { error in
            (error as? CadenceError)?.code == .notFound && (error as? CadenceError)?.path == "/nonexistent/export.xml"
        }
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let zip = directory.appendingPathComponent("export.xml")
        try Data([0x50, 0x4B, 0x03, 0x04, 0, 0, 0, 0]).write(to: zip)
        #expect {
            _ = try ExportXMLReader.read(fileAt: zip.path) { _ in }
        } throws: { error in
            (error as? CadenceError)?.message.contains("read(zipAt:)") == true
        }
    }
}
