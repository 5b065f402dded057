//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where an import finds the GPX files that workouts' `<FileReference path=…>`s name: inside the
/// `export.zip` being read, or in the folder of an unpacked `export.xml` (<doc:HowCadenceComputes#Categories-workouts-and-correlations>).
///
/// A file beside an unpacked export is read only if it is a regular file inside the export's
/// folder once every symbolic link is resolved (never a FIFO, a device or a link out of the
/// folder), of at most as many bytes as a route inside an archive may inflate to.
enum WorkoutRouteFiles {
    /// Route files are entries of this archive.
    case archive(ExportArchive)
    /// Route files lie under this folder (the one holding `export.xml`), each at most `maxBytes`.
    case folder(String, maxBytes: UInt64)

    /// The route files of an `export.xml` at `path`: those in its folder, each of at most
    /// `maxBytes` (by default what ``ExportArchive/Limits/maxRouteBytes`` allows a route in a zip).
    static func besideExport(atPath path: String,
                             maxBytes: UInt64 = ExportArchive.Limits().maxRouteBytes) -> WorkoutRouteFiles {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return .folder(folder.isEmpty && !path.hasPrefix("/") ? "." : folder, maxBytes: maxBytes)
    }

    /// The key under which a reference's route is cached: the reference without its leading `/`s,
    /// as both places take it relative to the export's folder.
    static func key(_ reference: String) -> Substring { reference.drop { $0 == "/" } }

    /// Reads the route file `reference` names into a location series.
    ///
    /// - Returns: The points, and the reader's summary (points skipped).
    /// - Throws: ``CadenceError``: `notFound` when there is no such file; `hostileInput` for a file
    ///   beside an export that is not a regular file inside its folder or is too large; what
    ///   ``GPXReader`` or the archive throws when it cannot be read whole.
    func read(_ reference: String, limits: GPXReader.Limits = GPXReader.Limits()) throws -> (LocationSeries, GPXReader.Summary) {
        switch self {
        case .archive(let archive):
            guard let entryPath = archive.routeEntryPath(forReference: reference) else {
                throw CadenceError(.notFound, "the route file \(reference) is not in the archive", path: archive.path)
            }
            var reader = GPXReader(limits: limits, path: archive.path + "/" + entryPath)
            try archive.streamRoute(atEntryPath: entryPath) { try reader.feed($0) }
            return (try reader.finish(), reader.summary)
        case .folder(let folder, let maxBytes):
            let source = try Self.open(reference, inside: folder)
            let tooLarge = "holds more than the \(maxBytes) bytes a route file may"
            guard UInt64(max(0, source.size)) <= maxBytes else {
                throw CadenceError(.hostileInput, "\(tooLarge) (\(source.size) bytes)", path: source.path)
            }
            var reader = GPXReader(limits: limits, path: source.path)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
            defer { buffer.deallocate() }
            var total: UInt64 = 0
            while true {
                let count = try source.read(into: buffer)
                guard count > 0 else { break }
                // The file may grow while it is read: the bound holds for the bytes read, too.
                total += UInt64(count)
                guard total <= maxBytes else { throw CadenceError(.hostileInput, tooLarge, path: source.path) }
                try reader.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
            return (try reader.finish(), reader.summary)
        }
    }

    /// Opens the file `reference` names under `folder`, if it is a regular file that stays inside
    /// the folder once every symbolic link on its path is resolved.
    private static func open(_ reference: String, inside folder: String) throws -> FileByteSource {
        let relative = key(reference)
        guard !relative.split(separator: "/").contains("..") else {
            throw CadenceError(.hostileInput, "the route file \(reference) climbs out of the export's folder")
        }
        let path = folder + "/" + relative
        let root = try resolve(folder)
        let resolved = try resolve(path)
        guard resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw CadenceError(.hostileInput, "leads out of the export's folder, to \(resolved)", path: path)
        }
        // Opened by its resolved path, without following a link swapped in since.
        return try FileByteSource(path: resolved, regularOnly: true)
    }

    /// The absolute path `path` leads to, every symbolic link resolved.
    private static func resolve(_ path: String) throws -> String {
        guard let resolved = realpath(path, nil) else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw CadenceError(.notFound, "does not exist", path: path) }
            throw CadenceError(.io, "cannot be resolved: \(String(cString: strerror(code)))", path: path)
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
