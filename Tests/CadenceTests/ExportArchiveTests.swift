//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
import ZIPFoundation

@testable import Cadence

/// Builds zip archives for the tests: with ZIPFoundation, or byte by byte for hostile ones.
enum ZipFixtures {
    /// One entry to write with ZIPFoundation.
    struct Item {
        var path: String
        var data: Data
        var method: CompressionMethod = .deflate
        var type: Entry.EntryType = .file
    }

    /// Writes a zip archive with ZIPFoundation.
    static func write(_ items: [Item], to url: URL) throws {
        let archive = try Archive(url: url, accessMode: .create)
        for item in items {
            try archive.addEntry(
                with: item.path, type: item.type, uncompressedSize: Int64(item.data.count),
                compressionMethod: item.method, bufferSize: 64 << 10
            ) { position, size in
                item.data.subdata(in: Int(position)..<(Int(position) + size))
            }
        }
    }

    /// One entry written byte by byte.
    struct RawEntry {
        var path: String
        var data: [UInt8]
        var method: UInt16 = 0
        var flags: UInt16 = 0
        var versionMadeBy: UInt16 = 0x031E
        var mode: UInt32 = 0o100644
        var uncompressedSize: UInt32?
    }

    /// Writes the bytes of a zip archive, local headers, central directory and end record;
    /// with `zip64`, sizes and offsets go in ZIP64 extra fields and a ZIP64 end record.
    static func raw(_ entries: [RawEntry], zip64: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        var directory: [UInt8] = []
        func le16(_ value: UInt16, _ out: inout [UInt8]) { out += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func le32(_ value: UInt32, _ out: inout [UInt8]) {
            le16(UInt16(value & 0xFFFF), &out)
            le16(UInt16(value >> 16), &out)
        }
        func le64(_ value: UInt64, _ out: inout [UInt8]) {
            le32(UInt32(value & 0xFFFF_FFFF), &out)
            le32(UInt32(value >> 32), &out)
        }
        for entry in entries {
            let offset = UInt32(bytes.count)
            let name = Array(entry.path.utf8)
            let crc = crc32(entry.data)
            let size = entry.uncompressedSize ?? UInt32(entry.data.count)
            le32(0x0403_4B50, &bytes)
            le16(20, &bytes)
            le16(entry.flags, &bytes)
            le16(entry.method, &bytes)
            le32(0, &bytes)
            le32(crc, &bytes)
            le32(UInt32(entry.data.count), &bytes)
            le32(size, &bytes)
            le16(UInt16(name.count), &bytes)
            le16(0, &bytes)
            bytes += name + entry.data
            le32(0x0201_4B50, &directory)
            le16(entry.versionMadeBy, &directory)
            le16(20, &directory)
            le16(entry.flags, &directory)
            le16(entry.method, &directory)
            le32(0, &directory)
            le32(crc, &directory)
            le32(zip64 ? 0xFFFF_FFFF : UInt32(entry.data.count), &directory)
            le32(zip64 ? 0xFFFF_FFFF : size, &directory)
            le16(UInt16(name.count), &directory)
            le16(zip64 ? 28 : 0, &directory)
            le16(0, &directory)
            le16(0, &directory)
            le16(0, &directory)
            le32(entry.mode << 16, &directory)
            le32(zip64 ? 0xFFFF_FFFF : offset, &directory)
            directory += name
            if zip64 {
                le16(0x0001, &directory)
                le16(24, &directory)
                le64(UInt64(size), &directory)
                le64(UInt64(entry.data.count), &directory)
                le64(UInt64(offset), &directory)
            }
        }
        let directoryOffset = UInt32(bytes.count)
        bytes += directory
        if zip64 {
            let recordOffset = UInt64(bytes.count)
            le32(0x0606_4B50, &bytes)
            le64(44, &bytes)
            le16(45, &bytes)
            le16(45, &bytes)
            le32(0, &bytes)
            le32(0, &bytes)
            le64(UInt64(entries.count), &bytes)
            le64(UInt64(entries.count), &bytes)
            le64(UInt64(directory.count), &bytes)
            le64(UInt64(directoryOffset), &bytes)
            le32(0x0706_4B50, &bytes)
            le32(0, &bytes)
            le64(recordOffset, &bytes)
            le32(1, &bytes)
        }
        le32(0x0605_4B50, &bytes)
        le16(0, &bytes)
        le16(0, &bytes)
        le16(zip64 ? 0xFFFF : UInt16(entries.count), &bytes)
        le16(zip64 ? 0xFFFF : UInt16(entries.count), &bytes)
        le32(zip64 ? 0xFFFF_FFFF : UInt32(directory.count), &bytes)
        le32(zip64 ? 0xFFFF_FFFF : directoryOffset, &bytes)
        le16(0, &bytes)
        return bytes
    }

    /// CRC-32 (IEEE), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The offset of the first central directory entry in `bytes`.
    static func directoryEntryOffset(_ bytes: [UInt8]) -> Int? {
        let signature: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
        return bytes.indices.first { bytes[$0...].starts(with: signature) }
    }
}

@Suite("ExportArchive and ExportXMLReader.read(zipAt:)")
struct ExportArchiveTests {
    private func realExport() throws -> (path: String, data: Data) {
        let path = try ImportFixtures.appleHealthFile("hkimport-export.xml")
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test("The zipped export reads exactly as the file", arguments: [true, false])
    func zippedReadsIdentically(deflated: Bool) throws {
        let method: CompressionMethod = deflated ? .deflate : .none
        let (path, data) = try realExport()
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let zip = directory.appendingPathComponent("export.zip")
        try ZipFixtures.write([
            ZipFixtures.Item(path: "apple_health_export/", data: Data(), method: .none, type: .directory),
            ZipFixtures.Item(path: "apple_health_export/export_cda.xml", data: Data("<cda/>".utf8)),
            ZipFixtures.Item(path: "apple_health_export/workout-routes/route_1.gpx", data: Data("<gpx/>".utf8)),
            ZipFixtures.Item(path: "apple_health_export/export.xml", data: data, method: method),
        ], to: zip)

        var plain: [String] = []
        let plainSummary = try ExportXMLReader.read(fileAt: path) { plain.append(ImportFixtures.fingerprint($0)) }
        var zipped: [String] = []
        let zippedSummary = try ExportXMLReader.read(zipAt: zip.path) { zipped.append(ImportFixtures.fingerprint($0)) }
        #expect(zipped.count == 11_101)
        #expect(zipped == plain)
        #expect(zippedSummary == plainSummary)

        let archive = try ExportArchive(path: zip.path)
        #expect(archive.entryPath == "apple_health_export/export.xml")
        #expect(archive.declaredUncompressedSize == UInt64(data.count))
    }

    @Test("Older and localized layouts are found; a missing or doubled export.xml is refused")
    func entryNames() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let xml = Data(ImportFixtures.export(ImportFixtures.record()).utf8)
        let cases: [(String, [String], String?)] = [
            ("top.zip", ["export.xml"], "export.xml"),
            ("localized.zip", ["Apple Health Export/Export.xml", "Apple Health Export/export_cda.xml"],
             "Apple Health Export/Export.xml"),
            ("both.zip", ["old/export.xml", "apple_health_export/export.xml"], "apple_health_export/export.xml"),
        ]
        for (name, paths, expected) in cases {
            let zip = directory.appendingPathComponent(name)
            try ZipFixtures.write(paths.map { ZipFixtures.Item(path: $0, data: xml) }, to: zip)
            #expect(try ExportArchive(path: zip.path).entryPath == expected)
            var count = 0
            _ = try ExportXMLReader.read(zipAt: zip.path) { _ in count += 1 }
            #expect(count == 1)
        }
        let none = directory.appendingPathComponent("none.zip")
        try ZipFixtures.write([ZipFixtures.Item(path: "a/deep/export.xml", data: xml),
                               ZipFixtures.Item(path: "export_cda.xml", data: xml)], to: none)
        #expect { try ExportArchive(path: none.path) } throws: { ($0 as? CadenceError)?.code == .notFound }
        let two = directory.appendingPathComponent("two.zip")
        try ZipFixtures.write([ZipFixtures.Item(path: "a/export.xml", data: xml),
                               ZipFixtures.Item(path: "b/export.xml", data: xml)], to: two)
        #expect { try ExportArchive(path: two.path) } throws: { ($0 as? CadenceError)?.code == .malformedInput }
    }

    @Test("Entries that climb out, absolute paths and symbolic links are refused")
    func hostilePaths() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let xml = Array(ImportFixtures.export(ImportFixtures.record()).utf8)
        let good = ZipFixtures.RawEntry(path: "apple_health_export/export.xml", data: xml)
        let cases: [(String, ZipFixtures.RawEntry)] = [
            ("climbs out", ZipFixtures.RawEntry(path: "../evil", data: Array("x".utf8))),
            ("climbs out", ZipFixtures.RawEntry(path: "apple_health_export/../../evil.xml", data: xml)),
            ("climbs out", ZipFixtures.RawEntry(path: "a\\..\\..\\evil", data: xml)),
            ("is absolute", ZipFixtures.RawEntry(path: "/etc/cron.d/evil", data: xml)),
            ("drive letter", ZipFixtures.RawEntry(path: "C:/evil", data: xml)),
            ("symbolic link", ZipFixtures.RawEntry(path: "link", data: Array("/etc/passwd".utf8), mode: 0o120777)),
        ]
        for (index, (reason, hostile)) in cases.enumerated() {
            let zip = directory.appendingPathComponent("hostile-\(index).zip")
            try Data(ZipFixtures.raw([good, hostile])).write(to: zip)
            #expect {
                _ = try ExportXMLReader.read(zipAt: zip.path) { _ in }
            } throws: { error in
                guard let error = error as? CadenceError else { return false }
                return error.code == .hostileInput && error.message.contains(reason) && error.path == zip.path
            }
        }
        // The same entries without the hostile one read fine (the raw writer is sound).
        let clean = directory.appendingPathComponent("clean.zip")
        try Data(ZipFixtures.raw([good])).write(to: clean)
        var count = 0
        _ = try ExportXMLReader.read(zipAt: clean.path) { _ in count += 1 }
        #expect(count == 1)
    }

    @Test("ZIP64 sizes, offsets and end records are read")
    func zip64() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let xml = Array(ImportFixtures.export(ImportFixtures.record(value: "64")).utf8)
        let zip = directory.appendingPathComponent("zip64.zip")
        try Data(ZipFixtures.raw([
            ZipFixtures.RawEntry(path: "apple_health_export/export_cda.xml", data: Array("<cda/>".utf8)),
            ZipFixtures.RawEntry(path: "apple_health_export/export.xml", data: xml),
        ], zip64: true)).write(to: zip)
        let archive = try ExportArchive(path: zip.path)
        #expect(archive.entryPath == "apple_health_export/export.xml")
        #expect(archive.compressedSize == UInt64(xml.count))
        var values: [String?] = []
        _ = try ExportXMLReader.read(zipAt: zip.path) { values.append($0.value) }
        #expect(values == ["64"])
    }

    @Test("An encrypted or oddly compressed export entry is refused")
    func encryptedEntry() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let xml = Array(ImportFixtures.export(ImportFixtures.record()).utf8)
        let encrypted = directory.appendingPathComponent("encrypted.zip")
        try Data(ZipFixtures.raw([ZipFixtures.RawEntry(path: "export.xml", data: xml, flags: 1)])).write(to: encrypted)
        #expect { try ExportArchive(path: encrypted.path) } throws: { error in
            (error as? CadenceError)?.code == .malformedInput && "\(error)".contains("encrypted")
        }
        let bzip2 = directory.appendingPathComponent("bzip2.zip")
        try Data(ZipFixtures.raw([ZipFixtures.RawEntry(path: "export.xml", data: xml, method: 12)])).write(to: bzip2)
        #expect { try ExportArchive(path: bzip2.path) } throws: { error in
            (error as? CadenceError)?.code == .malformedInput && "\(error)".contains("method 12")
        }
    }

    @Test("A zip bomb stops with hostileInput as the bytes stream, whatever the header says")
    func zipBomb() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Zeros deflate about 1030 to 1: past the default ratio of 1000.
        let zeros = directory.appendingPathComponent("zeros.zip")
        try ZipFixtures.write([ZipFixtures.Item(path: "export.xml", data: Data(count: 20_000_000))], to: zeros)
        let archive = try ExportArchive(path: zeros.path)
        #expect(archive.compressedSize * 1_000 < 20_000_000)
        var delivered: UInt64 = 0
        #expect {
            try archive.streamExport { delivered += UInt64($0.count) }
        } throws: { error in
            (error as? CadenceError)?.code == .hostileInput && "\(error)".contains("zip bomb")
        }
        #expect(delivered <= archive.compressedSize * 1_000)

        // An export whose header lies about its size is still bounded by the bytes produced.
        var xml = Array(ImportFixtures.export(ImportFixtures.record()).utf8)
        xml += [UInt8](repeating: 0x20, count: 3_000_000)
        let spaces = directory.appendingPathComponent("spaces.zip")
        try ZipFixtures.write([ZipFixtures.Item(path: "export.xml", data: Data(xml))], to: spaces)
        #expect {
            _ = try ExportXMLReader.read(
                zipAt: spaces.path, archiveLimits: ExportArchive.Limits(maxExpansionRatio: 100)) { _ in }
        } throws: { ($0 as? CadenceError)?.code == .hostileInput }
        #expect {
            _ = try ExportXMLReader.read(
                zipAt: spaces.path, archiveLimits: ExportArchive.Limits(maxUncompressedBytes: 1_000_000)) { _ in }
        } throws: { ($0 as? CadenceError)?.code == .hostileInput }
        var records = 0
        _ = try ExportXMLReader.read(zipAt: spaces.path) { _ in records += 1 }
        #expect(records == 1)
    }

    @Test("Garbage, empty, missing and truncated archives are refused clearly")
    func notZips() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let garbage = directory.appendingPathComponent("garbage.zip")
        try Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: garbage)
        let empty = directory.appendingPathComponent("empty.zip")
        try Data().write(to: empty)
        for url in [garbage, empty] {
            #expect {
                _ = try ExportXMLReader.read(zipAt: url.path) { _ in }
            } throws: { error in
                (error as? CadenceError)?.code == .malformedInput && (error as? CadenceError)?.path == url.path
            }
        }
        #expect {
            _ = try ExportXMLReader.read(zipAt: directory.appendingPathComponent("missing.zip").path) { _ in }
        } throws: { ($0 as? CadenceError)?.code == .notFound }

        let (_, data) = try realExport()
        let whole = directory.appendingPathComponent("whole.zip")
        try ZipFixtures.write([ZipFixtures.Item(path: "apple_health_export/export.xml", data: data)], to: whole)
        let bytes = try [UInt8](Data(contentsOf: whole))
        for cut in stride(from: 0, to: bytes.count, by: bytes.count / 9) + [bytes.count - 1, bytes.count - 23] {
            let truncated = directory.appendingPathComponent("cut-\(cut).zip")
            try Data(bytes[0..<cut]).write(to: truncated)
            #expect {
                _ = try ExportXMLReader.read(zipAt: truncated.path) { _ in }
            } throws: { error in
                (error as? CadenceError)?.code == .malformedInput && (error as? CadenceError)?.path == truncated.path
            }
        }
    }

    @Test("Corrupt or cut deflate data is malformedInput, never a hang")
    func corruptData() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, data) = try realExport()
        let whole = directory.appendingPathComponent("whole.zip")
        try ZipFixtures.write([ZipFixtures.Item(path: "export.xml", data: data)], to: whole)
        let bytes = try [UInt8](Data(contentsOf: whole))
        let entry = try #require(ZipFixtures.directoryEntryOffset(bytes))

        // Flipped bytes in the middle of the deflate data.
        var flipped = bytes
        for offset in stride(from: 20_000, to: 20_400, by: 1) { flipped[offset] ^= 0x5A }
        // A central directory that says the data is a third of its real size: ZIPFoundation
        // alone would read on into the directory, then past the end of the file.
        var shrunk = bytes
        let third = UInt32(UInt32(bytes[entry + 20]) | UInt32(bytes[entry + 21]) << 8
            | UInt32(bytes[entry + 22]) << 16 | UInt32(bytes[entry + 23]) << 24) / 3
        for byte in 0..<4 { shrunk[entry + 20 + byte] = UInt8(truncatingIfNeeded: third >> (8 * UInt32(byte))) }
        // A deflate stream of one stored block that claims 65,535 bytes but stops after 64.
        let open = ZipFixtures.raw([ZipFixtures.RawEntry(
            path: "export.xml", data: [0x00, 0xFF, 0xFF, 0x00, 0x00] + Array(repeating: UInt8(ascii: " "), count: 64),
            method: 8, uncompressedSize: 65_535)])
        for (name, corrupt) in [("flipped", flipped), ("shrunk", shrunk), ("open", open)] {
            let url = directory.appendingPathComponent("\(name).zip")
            try Data(corrupt).write(to: url)
            let archive = try ExportArchive(path: url.path)
            #expect(throws: CadenceError.self, "\(name)") {
                try archive.streamExport { _ in }
            }
            do {
                try archive.streamExport { _ in }
            } catch let error as CadenceError {
                #expect(error.code == .malformedInput, "\(name): \(error)")
                #expect(error.path == url.path)
            }
        }
    }

    @Test("XML errors inside a zip name the entry; handler errors come out unchanged")
    func errorsInside() throws {
        struct Stop: Error {}
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = Array(ImportFixtures.export(ImportFixtures.record() + "\n" + ImportFixtures.record()).utf8.dropLast(30))
        let zip = directory.appendingPathComponent("cut.zip")
        try ZipFixtures.write([ZipFixtures.Item(path: "apple_health_export/export.xml", data: Data(cut))], to: zip)
        var count = 0
        #expect {
            _ = try ExportXMLReader.read(zipAt: zip.path) { _ in count += 1 }
        } throws: { error in
            guard let error = error as? CadenceError else { return false }
            return error.code == .malformedInput && error.message.contains("truncated")
                && error.path == zip.path + "/apple_health_export/export.xml"
        }
        #expect(count == 1)
        #expect(throws: Stop.self) {
            _ = try ExportXMLReader.read(zipAt: zip.path) { _ in throw Stop() }
        }
    }
}
