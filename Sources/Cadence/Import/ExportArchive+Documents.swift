//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An export archive's clinical documents: `export_cda.xml` and the FHIR resources of
/// `clinical-records/`.
extension ExportArchive {
    /// The most bytes inflated from one document entry (a CDA document or a FHIR resource).
    public static let maxDocumentBytes: UInt64 = 64 << 20

    /// Whether an entry is `export_cda.xml` or a `.json` file in a `clinical-records` folder.
    static func isDocumentFile(_ entry: ZIPDirectory.Entry) -> Bool {
        let components = entry.components
        guard let name = components.last else { return false }
        if String(decoding: name, as: UTF8.self).lowercased() == "export_cda.xml" { return true }
        return components.count >= 2 && components[components.count - 2].elementsEqual("clinical-records".utf8)
            && name.count > 5 && name.suffix(5).map { $0 | 0x20 }.elementsEqual(".json".utf8)
    }

    /// The paths of the archive's document entries, sorted.
    public var documentEntryPaths: [String] { documentEntries.keys.sorted() }

    /// Inflates one document entry whole, under the archive's checks and at most ``maxDocumentBytes``.
    ///
    /// - Throws: ``CadenceError/Code/notFound`` when the archive has no such entry; otherwise as
    ///   ``streamExport(bufferSize:to:)``.
    public func readDocument(atEntryPath entryPath: String) throws -> [UInt8] {
        guard let entry = documentEntries[entryPath] else {
            throw CadenceError(.notFound, "holds no document \(entryPath)", path: path)
        }
        guard !entry.isEncrypted, entry.method == 0 || entry.method == 8 else {
            throw CadenceError(.malformedInput, "stores \(entry.path) encrypted or with compression method \(entry.method)",
                               path: path)
        }
        let source = try FileByteSource(path: path)
        var bytes: [UInt8] = []
        try stream(entry, dataOffset: try directory.dataOffset(of: entry, in: source), bufferSize: Self.streamBlockSize,
                   maxBytes: min(Self.maxDocumentBytes, limits.maxUncompressedBytes)) { bytes.append(contentsOf: $0) }
        return bytes
    }
}
