//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Reading an export from a file or from the `export.zip` that the Health app shares.

extension ExportXMLReader {
    /// The size of the blocks read from disk.
    static let blockSize = 1 << 20

    /// Reads an `export.xml` file in blocks of 1 MiB, delivering every record to `handler`.
    ///
    /// Memory stays bounded whatever the size of the file.
    ///
    ///     let summary = try ExportXMLReader.read(fileAt: "apple_health_export/export.xml") { record in
    ///         guard !record.isInsideCorrelation else { return }  // Apple writes those twice
    ///         samples.append(record)
    ///     }
    ///
    /// - Parameters:
    ///   - path: The `export.xml` file.
    ///   - limits: The bounds to enforce.
    ///   - handler: Called once per well-formed `<Record>`, in file order.
    /// - Returns: What the file held: counts per element kind and the records skipped.
    /// - Throws: ``CadenceError`` naming the file: ``CadenceError/Code/notFound`` or
    ///   ``CadenceError/Code/io`` if it cannot be read, ``CadenceError/Code/malformedInput`` if
    ///   it is truncated, is a zip archive or its tags do not nest,
    ///   ``CadenceError/Code/hostileInput`` if it passes a limit; and whatever `handler` throws.
    /// - Complexity: O(*n*) in the size of the file; memory O(``Limits/maxTagBytes``).
    public static func read(
        fileAt path: String, limits: Limits = Limits(), handler: (ExportRecord) throws -> Void
    ) throws -> ExportReadSummary {
        let source = try FileByteSource(path: path)
        var reader = ExportXMLReader(limits: limits, path: path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { buffer.deallocate() }
        var isFirstBlock = true
        while true {
            let count = try source.read(into: buffer)
            guard count > 0 else { break }
            let block = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            if isFirstBlock && block.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
                throw CadenceError(
                    .malformedInput, "is a zip archive, not XML: read it with read(zipAt:)", path: path)
            }
            isFirstBlock = false
            try reader.feed(block, to: handler)
        }
        return try reader.finish()
    }

    /// Reads the `export.xml` inside an `export.zip` as it inflates, without unpacking it to disk.
    ///
    /// The entry read is `apple_health_export/export.xml`, or else the one entry named
    /// `export.xml` (in any case) at the top of the archive or one folder down. The archive is
    /// checked first (see ``ExportArchive``): archives with paths that climb out (`../`) or
    /// are absolute, or with symbolic links, are refused.
    ///
    /// - Parameters:
    ///   - path: The zip archive.
    ///   - limits: The bounds the XML reader enforces.
    ///   - archiveLimits: The bounds on inflating the entry.
    ///   - handler: Called once per well-formed `<Record>`, in file order.
    /// - Returns: What the export held.
    /// - Throws: ``CadenceError``: ``CadenceError/Code/notFound`` if the archive holds no
    ///   `export.xml`, ``CadenceError/Code/malformedInput`` if it is not a zip, is truncated or
    ///   corrupt, or the XML is, ``CadenceError/Code/hostileInput`` for a refused archive or a
    ///   passed limit (a zip bomb); and whatever `handler` throws. XML errors name the file as
    ///   `export.zip/apple_health_export/export.xml`.
    /// - Complexity: O(*n*) in the uncompressed size; memory O(``Limits/maxTagBytes``).
    public static func read(
        zipAt path: String, limits: Limits = Limits(), archiveLimits: ExportArchive.Limits = ExportArchive.Limits(),
        handler: (ExportRecord) throws -> Void
    ) throws -> ExportReadSummary {
        let archive = try ExportArchive(path: path, limits: archiveLimits)
        var reader = ExportXMLReader(limits: limits, path: path + "/" + archive.entryPath)
        try archive.streamExport { block in
            try reader.feed(block, to: handler)
        }
        return try reader.finish()
    }
}
