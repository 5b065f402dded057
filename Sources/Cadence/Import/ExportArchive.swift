//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ZIPFoundation

/// The `export.zip` that the Health app shares, checked and opened for streaming.
///
/// Creating one reads the archive's central directory, refuses archives that could only be
/// hostile, and picks the export entry: `apple_health_export/export.xml`, or else the one
/// entry named `export.xml` in any case (older exports put it at the top, some localized ones
/// name it `Export.xml`) at the top or one folder down. ``streamExport(bufferSize:to:)`` then
/// inflates that entry block by block; nothing is written to disk.
///
/// ## Safety
///
/// - An archive with an entry whose path climbs out (`..`), is absolute or holds NUL, or with
///   a symbolic link entry, is refused whole with ``CadenceError/Code/hostileInput``; since
///   nothing is unpacked it could not write anywhere, but no real export looks like that.
/// - An encrypted export entry, or one compressed with anything but deflate, is refused with
///   ``CadenceError/Code/malformedInput``.
/// - The inflated bytes are counted as they stream, whatever the headers declare: more than
///   ``Limits/maxUncompressedBytes``, or more than ``Limits/maxExpansionRatio`` times the
///   compressed size, stops with ``CadenceError/Code/hostileInput`` (a zip bomb).
/// - A truncated or corrupt archive (no end record, data running past the end, a deflate
///   stream that is cut short or broken, a size or CRC-32 that does not match) throws
///   ``CadenceError/Code/malformedInput`` naming the file.
///
/// ZIPFoundation 0.9.20 inflates on Linux by asking its provider for input until the
/// deflate stream ends: past the entry's data, and forever at the end of a file whose stream
/// never ends. So this type reads the directory itself and hands ZIPFoundation's inflater a
/// provider that stops at the entry's compressed size.
public struct ExportArchive: Sendable {
    /// Bounds on inflating the export entry.
    public struct Limits: Sendable, Equatable {
        /// The most bytes inflated before reading stops. Default 64 GiB.
        public var maxUncompressedBytes: UInt64
        /// The largest ratio of inflated to compressed bytes. Real exports inflate about
        /// 10 to 30 times; deflate cannot pass about 1032. Default 1000.
        public var maxExpansionRatio: UInt64
        /// The largest central directory read. Default 64 MiB.
        public var maxDirectoryBytes: Int
        /// The most bytes inflated from one workout route file. Default 1 GiB.
        public var maxRouteBytes: UInt64

        /// Creates limits.
        ///
        /// - Parameters:
        ///   - maxUncompressedBytes: The most bytes inflated.
        ///   - maxExpansionRatio: The largest ratio of inflated to compressed bytes.
        ///   - maxDirectoryBytes: The largest central directory read.
        ///   - maxRouteBytes: The most bytes inflated from one route file.
        public init(
            maxUncompressedBytes: UInt64 = 64 << 30, maxExpansionRatio: UInt64 = 1000,
            maxDirectoryBytes: Int = 64 << 20, maxRouteBytes: UInt64 = 1 << 30
        ) {
            self.maxUncompressedBytes = maxUncompressedBytes
            self.maxExpansionRatio = max(1, maxExpansionRatio)
            self.maxDirectoryBytes = max(0, maxDirectoryBytes)
            self.maxRouteBytes = maxRouteBytes
        }
    }

    /// The archive file.
    public let path: String
    /// The path of the export entry inside the archive, such as `apple_health_export/export.xml`.
    public let entryPath: String
    /// The size of the entry as stored.
    public let compressedSize: UInt64
    /// The size of the entry once inflated, as its header declares (not trusted for limits).
    public let declaredUncompressedSize: UInt64
    /// The bounds enforced while streaming.
    public let limits: Limits

    /// The export entry, and where its data starts.
    private let export: ZIPDirectory.Entry
    private let exportDataOffset: UInt64
    /// The archive's central directory, to find a route entry's data.
    let directory: ZIPDirectory
    /// The `.gpx` entries under a `workout-routes` folder, by their path in the archive.
    private let routeEntries: [String: ZIPDirectory.Entry]
    /// The `export_cda.xml` and `clinical-records/*.json` entries, by their path in the archive.
    let documentEntries: [String: ZIPDirectory.Entry]

    /// Inflated bytes that a ratio under the limit always allows, so that tiny entries pass.
    private static let ratioAllowance: UInt64 = 1 << 20

    /// Opens an archive and finds its export entry.
    ///
    /// - Parameters:
    ///   - path: The zip archive.
    ///   - limits: The bounds to enforce.
    /// - Throws: ``CadenceError``: ``CadenceError/Code/notFound`` if the file does not exist
    ///   or holds no `export.xml`; ``CadenceError/Code/malformedInput`` if it is not a zip
    ///   archive, is truncated, or holds several candidate entries, an encrypted one or one in
    ///   an unsupported compression method; ``CadenceError/Code/hostileInput`` for paths that
    ///   climb out or are absolute, and for symbolic links.
    public init(path: String, limits: Limits = Limits()) throws {
        let source = try FileByteSource(path: path)
        let directory = try ZIPDirectory(source: source, maxDirectoryBytes: limits.maxDirectoryBytes)
        var preferred: [ZIPDirectory.Entry] = []
        var candidates: [ZIPDirectory.Entry] = []
        var routes: [String: ZIPDirectory.Entry] = [:]
        var documents: [String: ZIPDirectory.Entry] = [:]
        try directory.forEachEntry(in: source) { entry in
            if let problem = entry.pathProblem {
                throw CadenceError(
                    .hostileInput,
                    "is refused: the path of its entry \"\(entry.path)\" \(problem)", path: path)
            }
            if entry.isSymbolicLink {
                throw CadenceError(
                    .hostileInput, "is refused: its entry \"\(entry.path)\" is a symbolic link", path: path)
            }
            guard !entry.isDirectory else { return }
            if Self.isRouteFile(entry) { routes[entry.path] = entry }
            if Self.isDocumentFile(entry) { documents[entry.path] = entry }
            if entry.pathBytes.elementsEqual("apple_health_export/export.xml".utf8) {
                preferred.append(entry)
            } else if Self.isExportName(entry) {
                candidates.append(entry)
            }
        }
        let chosen: ZIPDirectory.Entry
        if preferred.count == 1, let only = preferred.first {
            chosen = only
        } else if preferred.isEmpty && candidates.count == 1, let only = candidates.first {
            chosen = only
        } else if preferred.isEmpty && candidates.isEmpty {
            throw CadenceError(
                .notFound, "holds no export.xml: it is not an Apple Health export archive", path: path)
        } else {
            let names = (preferred + candidates).prefix(4).map(\.path).joined(separator: ", ")
            throw CadenceError(
                .malformedInput, "holds more than one export.xml (\(names)), so which to read is unclear",
                path: path)
        }
        if chosen.isEncrypted {
            throw CadenceError(
                .malformedInput, "is encrypted (entry \(chosen.path)); encrypted archives are not supported",
                path: path)
        }
        guard chosen.method == 0 || chosen.method == 8 else {
            throw CadenceError(
                .malformedInput,
                "stores \(chosen.path) with compression method \(chosen.method); only deflate (8) and "
                    + "stored (0) are supported",
                path: path)
        }
        self.path = path
        self.entryPath = chosen.path
        self.compressedSize = chosen.compressedSize
        self.declaredUncompressedSize = chosen.uncompressedSize
        self.limits = limits
        self.export = chosen
        self.exportDataOffset = try directory.dataOffset(of: chosen, in: source)
        self.directory = directory
        self.routeEntries = routes
        self.documentEntries = documents
    }

    /// Whether an entry is named `export.xml` in any case, at the top or one folder down.
    private static func isExportName(_ entry: ZIPDirectory.Entry) -> Bool {
        let components = entry.components
        guard components.count <= 2, let last = components.last else { return false }
        return last.count == 10 && last.map { $0 | 0x20 }.elementsEqual("export.xml".utf8)
    }

    /// The default size of the blocks ``streamExport(bufferSize:to:)`` reads and inflates: 256 KiB.
    public static let streamBlockSize = 256 << 10

    /// Inflates the export entry and hands its bytes to `consumer`, block by block.
    ///
    /// - Parameters:
    ///   - bufferSize: The size of the blocks read and inflated (``streamBlockSize`` by default).
    ///   - consumer: Called with each block of inflated bytes, in order. The buffer is valid
    ///     only during the call.
    /// - Throws: ``CadenceError``: ``CadenceError/Code/hostileInput`` when a limit is passed,
    ///   ``CadenceError/Code/malformedInput`` when the entry is truncated or corrupt (after the
    ///   bytes before the damage were handed over), ``CadenceError/Code/io``; and whatever
    ///   `consumer` throws, unchanged.
    /// - Complexity: O(*n*) in the inflated size; memory O(`bufferSize`).
    public func streamExport(
        bufferSize: Int = ExportArchive.streamBlockSize, to consumer: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try stream(export, dataOffset: exportDataOffset, bufferSize: bufferSize, maxBytes: limits.maxUncompressedBytes, to: consumer)
    }

    // MARK: Workout routes

    /// Whether an entry is a route file: a `.gpx` file in a `workout-routes` folder.
    private static func isRouteFile(_ entry: ZIPDirectory.Entry) -> Bool {
        let components = entry.components
        guard components.count >= 2, let name = components.last else { return false }
        return components[components.count - 2].elementsEqual("workout-routes".utf8)
            && name.count > 4 && name.suffix(4).map { $0 | 0x20 }.elementsEqual(".gpx".utf8)
    }

    /// The number of route files (`workout-routes/*.gpx`) in the archive.
    public var routeFileCount: Int { routeEntries.count }

    /// The archive path of the route file that a `<FileReference path=…>` names: the path is taken
    /// relative to the folder of `export.xml` (`/workout-routes/route_1.gpx` is
    /// `apple_health_export/workout-routes/route_1.gpx`); `nil` when the archive has no such file.
    public func routeEntryPath(forReference reference: String) -> String? {
        var relative = Substring(reference)
        while relative.hasPrefix("/") { relative = relative.dropFirst() }
        let folder = entryPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let candidate = folder.isEmpty ? String(relative) : folder + "/" + relative
        return routeEntries[candidate] != nil ? candidate : nil
    }

    /// Inflates a route file and hands its bytes to `consumer`, block by block, under the same
    /// checks as the export entry and at most ``Limits/maxRouteBytes``.
    ///
    /// - Parameters:
    ///   - entryPath: The route file's path in the archive (see ``routeEntryPath(forReference:)``).
    ///   - consumer: Called with each block of inflated bytes, in order.
    /// - Throws: ``CadenceError/Code/notFound`` when the archive has no such route file; otherwise as
    ///   ``streamExport(bufferSize:to:)``.
    public func streamRoute(
        atEntryPath entryPath: String, to consumer: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let entry = routeEntries[entryPath] else {
            throw CadenceError(.notFound, "holds no route file \(entryPath)", path: path)
        }
        if entry.isEncrypted {
            throw CadenceError(.malformedInput, "is encrypted (entry \(entry.path))", path: path)
        }
        guard entry.method == 0 || entry.method == 8 else {
            throw CadenceError(
                .malformedInput, "stores \(entry.path) with compression method \(entry.method)", path: path)
        }
        let source = try FileByteSource(path: path)
        try stream(entry, dataOffset: try directory.dataOffset(of: entry, in: source), bufferSize: Self.streamBlockSize, maxBytes: min(limits.maxRouteBytes, limits.maxUncompressedBytes),
                   to: consumer)
    }

    // MARK: Inflating

    /// Inflates `entry` block by block, counting the bytes against `maxBytes` and the expansion
    /// ratio, and checking its size and CRC-32 at the end.
    func stream(
        _ entry: ZIPDirectory.Entry, dataOffset: UInt64, bufferSize: Int, maxBytes: UInt64,
        to consumer: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let entryPath = entry.path
        let compressedSize = entry.compressedSize
        let source = try FileByteSource(path: path)
        let chunkSize = max(4096, bufferSize)
        var produced: UInt64 = 0
        var checksum = ZIPChecksum()
        var consumerError: (any Error)?
        let ratioLimit = compressedSize.multipliedReportingOverflow(by: limits.maxExpansionRatio)
        let maxByRatio = ratioLimit.overflow ? UInt64.max : max(ratioLimit.partialValue, Self.ratioAllowance)

        func deliver(_ block: UnsafeRawBufferPointer) throws {
            produced += UInt64(block.count)
            if produced > maxBytes {
                throw CadenceError(
                    .hostileInput,
                    "inflates \(entryPath) to more than \(maxBytes) bytes, the limit", path: path)
            }
            if produced > maxByRatio {
                throw CadenceError(
                    .hostileInput,
                    "inflates \(entryPath) more than \(limits.maxExpansionRatio) times its compressed size of "
                        + "\(compressedSize) bytes: it looks like a zip bomb",
                    path: path)
            }
            checksum.update(block)
            do {
                try consumer(block)
            } catch {
                consumerError = error
                throw error
            }
        }

        if entry.method == 0 {
            try streamStored(source, entry, dataOffset: dataOffset, chunkSize: chunkSize, deliver: deliver)
        } else {
            var offset = Int64(dataOffset)
            var remaining = compressedSize
            do {
                // ZIPFoundation's CRC-32 on Linux goes a byte at a time; ZIPChecksum is faster.
                _ = try Data.decompress(
                    size: Int64(compressedSize), bufferSize: chunkSize, skipCRC32: true,
                    provider: { _, requested -> Data in
                        // Always exactly `requested` bytes: ZIPFoundation's Linux inflater reads
                        // that many whatever it is given. Past the entry's data, zeros pad the
                        // last block, and asking again means the stream was cut short.
                        guard requested > 0 else { return Data() }
                        guard remaining > 0 else {
                            throw CadenceError(
                                .malformedInput,
                                "is truncated or corrupt: the deflate stream of \(entryPath) ends early",
                                path: path)
                        }
                        let take = Int(min(UInt64(requested), remaining))
                        var data = Data(count: requested)
                        try data.withUnsafeMutableBytes { buffer in
                            try source.readExactly(
                                into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<take]), at: offset)
                        }
                        offset += Int64(take)
                        remaining -= UInt64(take)
                        return data
                    },
                    consumer: { data in
                        try data.withUnsafeBytes { try deliver($0) }
                    })
            } catch let error as CadenceError where consumerError == nil {
                throw error
            } catch {
                if let consumerError { throw consumerError }
                throw CadenceError(
                    .malformedInput, "is corrupt: the deflate data of \(entryPath) is broken (\(error))", path: path)
            }
        }
        guard produced == entry.uncompressedSize else {
            throw CadenceError(
                .malformedInput,
                "is corrupt: \(entryPath) inflates to \(produced) bytes but its header says "
                    + "\(entry.uncompressedSize)",
                path: path)
        }
        guard checksum.value == entry.crc32 else {
            throw CadenceError(
                .malformedInput, "is corrupt: the CRC-32 of \(entryPath) does not match its header", path: path)
        }
    }

    /// Streams a stored (uncompressed) entry.
    private func streamStored(
        _ source: FileByteSource, _ entry: ZIPDirectory.Entry, dataOffset: UInt64, chunkSize: Int,
        deliver: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var offset = Int64(dataOffset)
        var remaining = entry.compressedSize
        var data = Data(count: chunkSize)
        while remaining > 0 {
            let take = Int(min(UInt64(chunkSize), remaining))
            if data.count != take { data.count = take }
            try data.withUnsafeMutableBytes { try source.readExactly(into: $0, at: offset) }
            try data.withUnsafeBytes { try deliver($0) }
            offset += Int64(take)
            remaining -= UInt64(take)
        }
    }
}
