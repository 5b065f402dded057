//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Device descriptions come back byte for byte, object address included, while the address takes
/// no part in identity and the source dictionary keeps one entry per device (see How Cadence
/// computes, Identity).
@Suite("Device object addresses")
struct DeviceAddressTests {
    static let hkimport = ImportFixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/apple-health/hkimport-export.xml")

    // MARK: The hkimport export

    /// What tells a record of the export apart, less its device: type, dates and source.
    struct Fingerprint: Hashable {
        var type: String
        var start: Timestamp
        var end: Timestamp
        var creation: Timestamp?
        var source: String
    }

    /// Every top-level record of an export with a `device=` attribute: its fingerprint and the
    /// raw attribute value, XML-unescaped, read line by line independently of the importer.
    static func exportDevices(_ url: URL) throws -> [Fingerprint: [String]] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var devices: [Fingerprint: [String]] = [:]
        var insideCorrelation = false
        for line in text.split(separator: "\n") {
            if line.contains("<Correlation ") { insideCorrelation = !line.contains("/>") }
            if line.contains("</Correlation>") { insideCorrelation = false }
            guard !insideCorrelation, line.contains("<Record "), line.contains(" device=\"") else { continue }
            let attributes = attributes(of: line)
            let fingerprint = Fingerprint(
                type: try #require(attributes["type"]), start: try SampleCollector.parseDate(try #require(attributes["startDate"])),
                end: try SampleCollector.parseDate(try #require(attributes["endDate"])),
                creation: try attributes["creationDate"].map(SampleCollector.parseDate),
                source: try #require(attributes["sourceName"]))
            devices[fingerprint, default: []].append(try #require(attributes["device"]))
        }
        return devices.mapValues { $0.sorted() }
    }

    /// The attributes of a start tag written on one line, values XML-unescaped.
    static func attributes(of line: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = line[...]
        while let equals = rest.range(of: "=\"") {
            let name = rest[..<equals.lowerBound].split(separator: " ").last.map(String.init) ?? ""
            let afterQuote = rest[equals.upperBound...]
            guard let close = afterQuote.firstIndex(of: "\"") else { break }
            result[name] = unescaped(afterQuote[..<close])
            rest = afterQuote[afterQuote.index(after: close)...]
        }
        return result
    }

    /// XML text with its character and entity references replaced.
    static func unescaped(_ text: Substring) -> String {
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&"), let semicolon = rest[ampersand...].firstIndex(of: ";") {
            result += rest[..<ampersand]
            let name = rest[rest.index(after: ampersand)..<semicolon]
            switch name {
            case "lt": result += "<"
            case "gt": result += ">"
            case "amp": result += "&"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : UInt32(name.dropFirst(), radix: 10)
                result.unicodeScalars.append(number.flatMap(Unicode.Scalar.init) ?? "\u{FFFD}")
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    /// The devices a store shows, by the same fingerprint, for samples that have one.
    static func storedDevices(_ store: HealthStore) throws -> [Fingerprint: [String]] {
        var devices: [Fingerprint: [String]] = [:]
        func note(_ type: String, _ start: Date, _ end: Date, _ creation: Date?, _ source: Source, _ device: Device?) {
            guard let device else { return }
            let fingerprint = Fingerprint(type: type, start: start.timestamp, end: end.timestamp,
                                          creation: creation?.timestamp, source: source.name)
            devices[fingerprint, default: []].append(device.descriptionString)
        }
        for type in store.quantityTypes {
            for sample in try store.execute(SampleQuery(quantityType: type)) {
                note(type.identifier, sample.startDate, sample.endDate, sample.creationDate, sample.source, sample.device)
            }
        }
        for type in store.categoryTypes {
            for sample in try store.execute(SampleQuery(categoryType: type)) {
                note(type.identifier, sample.startDate, sample.endDate, sample.creationDate, sample.source, sample.device)
            }
        }
        return devices.mapValues { $0.sorted() }
    }

    /// Every UUID a store holds.
    static func uuids(_ store: HealthStore) throws -> Set<UUID> {
        var uuids = Set<UUID>()
        for type in store.quantityTypes { uuids.formUnion(try store.execute(SampleQuery(quantityType: type)).map(\.uuid)) }
        for type in store.categoryTypes { uuids.formUnion(try store.execute(SampleQuery(categoryType: type)).map(\.uuid)) }
        return uuids
    }

    @Test("every device string of the hkimport export comes back byte for byte, from the unflushed head, the log and the chunks")
    func hkimportDevicesRoundTrip() throws {
        let expected = try Self.exportDevices(Self.hkimport)
        #expect(expected.values.reduce(0) { $0 + $1.count } == 7_088)
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try HealthStore.open(at: path)
        let summary = try HealthDataImporter(store: store, parallelism: 1).importFile(atPath: Self.hkimport.path)
        #expect(!summary.failed)

        // Unflushed: the writer's head, and another process replaying the log.
        #expect(try Self.storedDevices(store) == expected)
        let replaying = try HealthStore.open(at: path, options: .readOnly)
        #expect(try Self.storedDevices(replaying) == expected)
        // The dictionary holds the three devices without their addresses, not one per record.
        let dictionaryDevices = Set(store.snapshot().provenances.compactMap { $0.device?.rawDescription })
        #expect(dictionaryDevices.count == 3)
        #expect(dictionaryDevices.allSatisfy { $0.hasPrefix("<<HKDevice>, name:iPhone") })

        try store.flush()
        #expect(try Self.storedDevices(store) == expected)
        try store.compact()
        #expect(try Self.storedDevices(store) == expected)
        try store.close()
        let reopened = try HealthStore.open(at: path, options: .readOnly)
        #expect(reopened.verify().isEmpty)
        #expect(try Self.storedDevices(reopened) == expected)
    }

    @Test("re-importing the export, or one whose addresses all differ, adds nothing and keeps the stored addresses")
    func reimportIgnoresAddresses() throws {
        let directory = StoreTests.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // 1,500 of the export's records with a device (look-alikes among them), and the same
        // records with every address moved (still canonical: no leading zero).
        let lines = try String(contentsOf: Self.hkimport, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("<Record ") && $0.contains(" device=\"") && $0.hasSuffix("/>") }
        let text = ImportFixtures.export(lines.prefix(1_500).joined(separator: "\n"))
        let original = directory + "/original.xml"
        try text.write(toFile: original, atomically: true, encoding: .utf8)
        var moved = ""
        var rest = text[...]
        while let marker = rest.range(of: "HKDevice: 0x") {
            moved += rest[..<marker.upperBound]
            let digits = rest[marker.upperBound...].prefix { $0.isHexDigit }
            moved += String(try #require(UInt64(digits, radix: 16)) + 0x1_0000_0000_0000, radix: 16)
            rest = rest[marker.upperBound...].dropFirst(digits.count)
        }
        moved += rest
        #expect(moved != text)
        let movedPath = directory + "/moved.xml"
        try moved.write(toFile: movedPath, atomically: true, encoding: .utf8)

        let expected = try Self.exportDevices(URL(fileURLWithPath: original))
        let store = HealthStore.inMemory()
        let first = try HealthDataImporter(store: store, parallelism: 1).importFile(atPath: original)
        #expect(first.imported == 1_500)
        let uuids = try Self.uuids(store)
        let again = try HealthDataImporter(store: store, parallelism: 1).importFile(atPath: original)
        #expect(again.imported == 0 && again.duplicates == first.imported)
        let other = try HealthDataImporter(store: store, parallelism: 1).importFile(atPath: movedPath)
        #expect(other.imported == 0 && other.duplicates == first.imported)
        #expect(try Self.storedDevices(store) == expected)
        #expect(try Self.uuids(store) == uuids)

        // Imported on its own, the moved export shows its own addresses, under the same UUIDs.
        let movedStore = HealthStore.inMemory()
        _ = try HealthDataImporter(store: movedStore, parallelism: 1).importFile(atPath: movedPath)
        #expect(try Self.uuids(movedStore) == uuids)
        #expect(try Self.storedDevices(movedStore) == Self.exportDevices(URL(fileURLWithPath: movedPath)))
    }

    // MARK: Identity and the split

    @Test("derived UUIDs are those of the description without its address")
    func identityIgnoresAddress() {
        let source = Source(name: "Phone")
        func uuid(_ description: String) -> UUID {
            QuantitySample.derivedUUID(type: "HKQuantityTypeIdentifierStepCount",
                                       provenance: Provenance(source: source, device: Device(description: description)),
                                       value: 12, start: 0, end: 60_000_000, creation: nil, metadata: [:])
        }
        let stripped = uuid("<<HKDevice>, name:iPhone, model:iPhone>")
        #expect(uuid("<<HKDevice: 0x282e86490>, name:iPhone, model:iPhone>") == stripped)
        #expect(uuid("<<HKDevice: 0x1>, name:iPhone, model:iPhone>") == stripped)
        // Kept whole in the dictionary, but identity still leaves the address out, as before.
        #expect(uuid("<<HKDevice: 0x00AB>, name:iPhone, model:iPhone>") == stripped)
        #expect(uuid("<<HKDevice>, name:iPad, model:iPhone>") != stripped)
    }

    /// A random canonical description, and its address.
    static func canonical(_ random: inout TestRandom) -> (String, UInt64) {
        let address: UInt64 = switch random.next() % 4 {
        case 0: UInt64.random(in: 1...0xF, using: &random)
        case 1: UInt64.max - UInt64.random(in: 0...3, using: &random)
        default: UInt64.random(in: 0x1_0000_0000...0x1_FFFF_FFF0, using: &random) & ~0xF
        }
        let names = ["iPhone", "Apple Watch", "Jane’s Watch", "café", "cafe\u{301}", "", "a>b, c:d"]
        let name = names[Int(random.next() % UInt64(names.count))]
        return ("<<HKDevice: 0x\(String(address, radix: 16))>, name:\(name), manufacturer:Apple Inc., model:iPhone>", address)
    }

    /// Device text that is not in the canonical form, each kept whole.
    static let nonCanonical = [
        "<<HKDevice: 0x0>, name:iPhone>", "<<HKDevice: 0x0282e86490>, name:iPhone>", "<<HKDevice: 0x282E86490>, name:iPhone>",
        "<<HKDevice: 0x11112222333344445>, name:iPhone>", "<<HKDevice: 0x>, name:iPhone>", "<<HKDevice: 0x282e86490, name:iPhone>",
        "<<HKDevice: 0x282e86490", "<<HKDevice>, name:iPhone>", "<<HKDevice: 0xabc >, name:iPhone>", " <<HKDevice: 0x1>, x>",
        "<HKDevice: 0x1>, name:iPhone>", "<<HKDevice:  0x1>, name:iPhone>", "Fitbit Charge 5", "", "<<HKDevice>",
        "name:Apple Watch, hardware:Watch2,4", "<<HKDevice: 0x1", "<<HKDevice: 0xg1>, name:iPhone>",
    ]

    @Test("canonical descriptions split into the address-free text and the address, and come back; any other text stays whole")
    func splitProperty() {
        var random = TestRandom(seed: 5)
        for _ in 0..<2_000 {
            let (description, address) = Self.canonical(&random)
            let split = Device.splittingObjectAddress(description)
            #expect(split?.address == address)
            #expect(split?.description.hasPrefix("<<HKDevice>, name:") == true)
            #expect(split.map { Device.restoringObjectAddress($0.address, to: $0.description) }?.utf8.elementsEqual(description.utf8) == true)
            let device = Device(description: description)
            #expect(device.rawDescription?.utf8.elementsEqual(description.utf8) == true)
            #expect(device.splittingObjectAddress.device.restoringObjectAddress(address) == device)
        }
        for text in Self.nonCanonical {
            #expect(Device.splittingObjectAddress(text) == nil, "\(text)")
            #expect(Device(description: text).splittingObjectAddress.address == 0)
        }
        #expect(Device.restoringObjectAddress(0, to: "<<HKDevice>, x>") == "<<HKDevice>, x>")
        #expect(Device.restoringObjectAddress(0x1f, to: "Fitbit") == "Fitbit")
    }

    @Test("random canonical and other device strings saved through the API read back byte for byte, in the head and in chunks",
          arguments: [UInt64(1), 2])
    func storeRoundTripProperty(seed: UInt64) throws {
        var random = TestRandom(seed: seed)
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = HealthStore.Options()
        options.flushThreshold = 150
        let store = try HealthStore.open(at: path, options: options)
        var expected: [UUID: String?] = [:]
        for batch in 0..<6 {
            var samples: [QuantitySample] = []
            for row in 0..<100 {
                let description: String? = switch random.next() % 5 {
                case 0: nil
                case 1: Self.nonCanonical[Int(random.next() % UInt64(Self.nonCanonical.count))]
                default: Self.canonical(&random).0
                }
                let start = Date(timeIntervalSince1970: Double(batch * 1_000 + row) * 60)
                let sample = try QuantitySample(type: .stepCount, value: Double(row), unit: .count, start: start, end: start,
                                                source: Source(name: "Phone"), device: description.map(Device.init(description:)))
                samples.append(sample)
                expected[sample.uuid] = description
            }
            _ = try store.save(samples)
            let read = try store.execute(SampleQuery(quantityType: .stepCount))
            #expect(read.count == expected.count)
            for sample in read {
                let wanted = try #require(expected[sample.uuid])
                #expect(sample.device?.rawDescription?.utf8.elementsEqual((wanted ?? "").utf8) ?? (wanted == nil), "\(wanted ?? "nil")")
            }
        }
        try store.compact()
        try store.close()
        let reopened = try HealthStore.open(at: path, options: .readOnly)
        for sample in try reopened.execute(SampleQuery(quantityType: .stepCount)) {
            let wanted = try #require(expected[sample.uuid])
            #expect(sample.device?.rawDescription.map { $0.utf8.elementsEqual((wanted ?? "").utf8) } ?? (wanted == nil))
        }
        // Canonical strings share the entries of their address-free text.
        let devices = reopened.snapshot().provenances.compactMap { $0.device?.rawDescription }
        #expect(devices.allSatisfy { Device.splittingObjectAddress($0) == nil })
        #expect(devices.count <= 7 + Self.nonCanonical.count)
    }

    @Test("a CSV device column keeps its text, address included")
    func csvDeviceColumn() throws {
        let directory = StoreTests.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let devices = ["<<HKDevice: 0x282e86490>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone8,1, software:10.3.1>",
                       "<<HKDevice: 0x1c0093ab0>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone8,1, software:10.3.1>",
                       "<<HKDevice: 0x0AB>, name:\"Quoted\">", "<<HKDevice>, name:iPhone>"]
        var csv = "type,sourceName,unit,startDate,endDate,value,device\n"
        for (index, device) in devices.enumerated() {
            csv += "HKQuantityTypeIdentifierStepCount,Phone,count,2024-05-01T07:0\(index):00Z,2024-05-01T07:0\(index):30Z,\(index + 1),"
            csv += "\"" + device.replacingOccurrences(of: "\"", with: "\"\"") + "\"\n"
        }
        let file = directory + "/samples.csv"
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        let store = HealthStore.inMemory()
        let summary = try HealthDataImporter(store: store, parallelism: 1).importFile(atPath: file)
        #expect(summary.imported == 4)
        let read = try store.execute(SampleQuery(quantityType: .stepCount)).sorted { $0.startDate < $1.startDate }
        #expect(read.map { $0.device?.descriptionString } == devices)
    }

    // MARK: The column

    @Test("the device address column round-trips through the detail columns; its absence reads as no address")
    func detailColumn() throws {
        var random = TestRandom(seed: 9)
        for trial in 0..<200 {
            var columns = SampleColumns()
            let count = Int(random.next() % 40) + 1
            for row in 0..<count {
                let address: UInt64 = switch (trial + Int(random.next() % 4)) % 4 {
                case 0: 0
                case 1: random.next()
                case 2: UInt64.max - random.next() % 3
                default: 0x1_7428_0000 + (random.next() % 0x100_0000) << 4
                }
                columns.append(start: Int64(row), end: Int64(row), value: 1, provenance: 0, deviceAddress: address)
            }
            let bytes = ColumnCodec.encodeDetailColumns(columns)
            var decoded = SampleColumns()
            var queryReader = BinaryReader(ColumnCodec.encodeQueryColumns(columns), path: "test")
            try ColumnCodec.decodeQueryColumns(&queryReader, count: count, into: &decoded)
            var reader = BinaryReader(bytes, path: "test")
            try ColumnCodec.decodeDetailColumns(&reader, into: &decoded, deviceAddresses: .present)
            #expect(reader.isAtEnd)
            #expect((0..<count).allSatisfy { decoded.deviceAddress(at: $0) == columns.deviceAddress(at: $0) })
        }
        // Version 4's detail columns end with the occurrence numbers: no address, from a chunk or a log.
        var columns = SampleColumns()
        columns.append(start: 0, end: 0, value: 1, provenance: 0)
        let versionFour = Array(ColumnCodec.encodeDetailColumns(columns).dropLast())
        for layout in [ColumnCodec.DeviceAddressColumn.absent, .trailing] {
            var reader = BinaryReader(versionFour, path: "test")
            try ColumnCodec.decodeDetailColumns(&reader, into: &columns, deviceAddresses: layout)
            #expect(columns.deviceAddress.isEmpty && reader.isAtEnd)
        }
        var missing = BinaryReader(versionFour, path: "chunk-x")
        let error = expectCadenceError(.corruptFile) {
            try ColumnCodec.decodeDetailColumns(&missing, into: &columns, deviceAddresses: .present)
        }
        #expect(error?.path == "chunk-x")
    }

    @Test("a flipped bit in a chunk holding addresses is an error naming the file, never other addresses")
    func corruptionIsAnError() throws {
        var columns = SampleColumns()
        for row in 0..<50 {
            columns.append(start: Int64(row) * 1_000_000, end: Int64(row) * 1_000_000, value: 1, provenance: 0, sequence: Int64(row + 1),
                           deviceAddress: row % 3 == 0 ? 0 : 0x1_7428_F780 + UInt64(row) * 0x50)
        }
        let bytes = try ChunkFile.encode(columns, typeIdentifier: "HKQuantityTypeIdentifierStepCount", style: .cumulative).bytes
        let decoded = try ChunkFile(bytes: bytes, path: "chunk-1").decodeAllColumns()
        #expect(decoded.deviceAddress == columns.deviceAddress)
        // Flip a bit in each byte of the detail section, one byte at a time.
        let detail = try ChunkBlockTests.Layout(bytes).detail
        for offset in detail {
            var damaged = bytes
            damaged[offset] ^= 0x10
            let error = expectCadenceError(.corruptFile) { _ = try ChunkFile(bytes: damaged, path: "chunk-1").decodeAllColumns() }
            #expect(error?.path == "chunk-1")
        }
    }

    // MARK: Restoring once a pair

    @Test("a reader restores each (provenance, address) pair once, and gives every row what restoring it alone gives, past the memo's capacity too")
    func restoredProvenancesMatchRowByRow() {
        var random = TestRandom(seed: 17)
        let provenances = (0..<12).map { index in
            let description: String? = switch index % 4 {
            case 0: nil
            case 1: "Fitbit \(index)"
            default: "<<HKDevice>, name:Watch \(index), manufacturer:Apple Inc.>"
            }
            return Provenance(source: Source(name: "Source \(index % 5)"), sourceVersion: index % 2 == 0 ? "1.\(index)" : nil,
                              device: description.map(Device.init(description:)))
        }
        var restored = RestoredProvenances(provenances)
        // A few addresses met again and again, then more new ones than the memo keeps.
        let rows = (0..<3_000).map { _ in (Int(random.next() % 13), [0, 0x1f, 0x282e86490, UInt64.max][Int(random.next() % 4)]) }
            + (0..<(RestoredProvenances.capacity + 1_000)).map { (Int(random.next() % 12), 0x1_0000_0000 + UInt64($0)) }
        for (number, address) in rows {
            let naive = number < provenances.count ? provenances[number].restoringDeviceAddress(address) : nil
            #expect(restored.provenance(number, address: address) == naive)
        }
        // Met again after the memo is full: still each row's own.
        for (number, address) in rows.suffix(50) {
            #expect(restored.provenance(number, address: address) == provenances[number].restoringDeviceAddress(address))
        }
    }

    @Test("samples of many sources and devices, their addresses shared or each its own, list with exactly their own device text")
    func manyDevicesListTheirOwnText() throws {
        var random = TestRandom(seed: 23)
        let store = HealthStore.inMemory()
        var expected: [UUID: String] = [:]
        var samples: [QuantitySample] = []
        let pool: [UInt64] = [0x1, 0xabc, 0x282e86490, 0x1c0093ab0, UInt64.max]
        for row in 0..<(RestoredProvenances.capacity + 2_000) {
            let device = Int(random.next() % 6)
            // Past the first 2,000 rows, every address is new: more pairs than the memo keeps.
            let address = row < 2_000 ? pool[Int(random.next() % UInt64(pool.count))] : 0x7000_0000 + UInt64(row) * 0x10
            let description = "<<HKDevice: 0x\(String(address, radix: 16))>, name:Watch \(device), model:Watch\(device % 3)>"
            let start = Date(timeIntervalSince1970: Double(row) * 60)
            let sample = try QuantitySample(type: .heartRate, value: Double(60 + row % 50), start: start, end: start,
                                            source: Source(name: "Source \(random.next() % 4)"),
                                            device: Device(description: description))
            samples.append(sample)
            expected[sample.uuid] = description
        }
        _ = try store.save(samples)
        for phase in ["head", "chunks"] {
            if phase == "chunks" { try store.flush() }
            let read = try store.execute(SampleQuery(quantityType: .heartRate))
            #expect(read.count == expected.count, "\(phase)")
            for sample in read {
                let wanted = try #require(expected[sample.uuid])
                #expect(sample.device?.rawDescription?.utf8.elementsEqual(wanted.utf8) == true, "\(phase): \(wanted)")
            }
        }
    }
}
