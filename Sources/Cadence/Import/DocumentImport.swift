//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Clinical documents and records an import reads: a standalone CDA file, a FHIR resource
/// (`.json`), a folder (an unpacked export: its `export.xml`, `export_cda.xml` and
/// `clinical-records/*.json`), and the same entries of an `export.zip`
/// (<doc:HowCadenceComputes#Documents-and-clinical-records>).
///
/// A file that cannot be read as what it claims to be (JSON that is not valid, a CDA document
/// without a title, a DTD) is reported in the summary's rejections with its name and the reason,
/// and never stored; the other files still import.
enum DocumentFiles {
    /// The source name of imported documents and records: whoever wrote the file, the Health app
    /// exported it (the same file imported from anywhere is the same sample).
    static let sourceName = "Health"

    /// Whether `path` is read by ``DocumentFileSource``: a folder, a `.json` file, or an XML file
    /// whose root element is a `ClinicalDocument` (looked for in its first 64 KiB).
    static func handles(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return true }
        let lowercased = path.lowercased()
        if lowercased.hasSuffix(".json") { return true }
        guard lowercased.hasSuffix(".xml"), let source = try? FileByteSource(path: path) else { return false }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { buffer.deallocate() }
        guard let count = try? source.read(into: buffer) else { return false }
        return rootElement(of: Array(buffer[0..<count])).map { $0 == "ClinicalDocument" || $0.hasSuffix(":ClinicalDocument") }
            ?? false
    }

    /// The name of the first element that `head` starts, past the prolog's declarations, comments and
    /// processing instructions; `nil` when `head` starts none.
    static func rootElement(of head: [UInt8]) -> String? {
        var index = 0
        func skip(past terminator: String) {
            let pattern = Array(terminator.utf8)
            while index + pattern.count <= head.count, !head[index..<index + pattern.count].elementsEqual(pattern) { index += 1 }
            index += pattern.count
        }
        while index < head.count {
            guard head[index] == UInt8(ascii: "<"), index + 1 < head.count else {
                index += 1
                continue
            }
            let rest = head[(index + 1)...]
            if rest.starts(with: "!--".utf8) {
                skip(past: "-->")
            } else if rest.starts(with: "?".utf8) {
                skip(past: "?>")
            } else if rest.starts(with: "!".utf8) {
                // A declaration; a DOCTYPE with an internal subset ends with "]>".
                let subset = head[index...].firstIndex { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: ">") }
                    .map { head[$0] == UInt8(ascii: "[") } ?? false
                skip(past: subset ? "]>" : ">")
            } else {
                let name = rest.prefix { ExportXMLReader.isNameByte($0) }
                return name.isEmpty ? nil : String(decoding: name, as: UTF8.self)
            }
        }
        return nil
    }

    /// Reads the file `name` (its bytes from `read`) as a CDA document or a FHIR resource (by its
    /// extension), and saves it unless the pipeline only checks; a file that cannot be read (too
    /// large, not valid, refused) is rejected with its name and the reason, and the import goes on.
    static func take(_ name: String, into pipeline: inout ImportPipeline, read: () throws -> [UInt8]) throws {
        let source = Source(name: sourceName)
        var bytes: [UInt8] = []
        do {
            bytes = try read()
            if name.lowercased().hasSuffix(".json") {
                let record = try ClinicalRecord(json: Data(bytes), source: source, path: name)
                pipeline.collector.summary.clinicalRecords += 1
                if !pipeline.dryRun { pipeline.noteDocumentSave(try pipeline.importer.store.save([record])) }
            } else {
                let document = try CDADocumentSample(data: Data(bytes), source: source, path: name)
                pipeline.collector.summary.documents += 1
                if !pipeline.dryRun { pipeline.noteDocumentSave(try pipeline.importer.store.save([document])) }
            }
        } catch let error as CadenceError where error.path == name || [.hostileInput, .malformedInput].contains(error.code) {
            pipeline.collector.summary.reject(line: error.line ?? 0, "\(name) \(error.message)")
        }
        try pipeline.didRead(bytes: bytes.count)
    }

    /// Reads the file at `path` whole, refusing one over `limit` bytes.
    static func readFile(_ path: String, limit: Int = Int(ExportArchive.maxDocumentBytes)) throws -> [UInt8] {
        let source = try FileByteSource(path: path, regularOnly: true)
        guard source.size <= Int64(limit) else {
            throw CadenceError(.hostileInput, "is refused: \(source.size) bytes, over the \(limit) bytes a document may hold",
                               path: path)
        }
        var bytes = [UInt8](repeating: 0, count: Int(source.size))
        var filled = 0
        try bytes.withUnsafeMutableBytes { buffer in
            while filled < buffer.count {
                let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                guard count > 0 else { break }
                filled += count
            }
        }
        return Array(bytes[0..<filled])
    }
}

/// A CDA file, a FHIR resource file, or a folder holding an unpacked export.
struct DocumentFileSource: ImportSource {
    let path: String

    func read(into pipeline: inout ImportPipeline) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return try DocumentFiles.take(path, into: &pipeline) { try DocumentFiles.readFile(path) }
        }
        let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
        let names = try POSIXFileSystem().contentsOfDirectory(folder).sorted()
        if names.contains("export.xml") { try ExportXMLFileSource(path: folder + "/export.xml").read(into: &pipeline) }
        var files = names.filter { $0.lowercased() == "export_cda.xml" || $0.lowercased().hasSuffix(".json") }
            .map { folder + "/" + $0 }
        if names.contains("clinical-records") {
            let records = folder + "/clinical-records"
            files += try POSIXFileSystem().contentsOfDirectory(records).sorted()
                .filter { $0.lowercased().hasSuffix(".json") }.map { records + "/" + $0 }
        }
        guard names.contains("export.xml") || !files.isEmpty else {
            throw CadenceError(.notFound, "is a folder with no export.xml, export_cda.xml or FHIR resource (.json) to import",
                               path: path)
        }
        for file in files { try DocumentFiles.take(file, into: &pipeline) { try DocumentFiles.readFile(file) } }
    }
}

extension ImportPipeline {
    /// Counts a document's or record's save in the summary.
    mutating func noteDocumentSave(_ saved: SaveSummary) {
        collector.summary.imported += saved.saved
        collector.summary.duplicates += saved.duplicates
        collector.summary.keptDeleted += saved.keptDeleted
    }
}

extension ExportArchive {
    /// Reads the archive's `export_cda.xml` and `clinical-records/*.json` into `pipeline`.
    func readDocuments(into pipeline: inout ImportPipeline) throws {
        for entry in documentEntryPaths {
            try DocumentFiles.take(path + "/" + entry, into: &pipeline) { try readDocument(atEntryPath: entry) }
        }
    }
}
