//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Where an import finds the GPX files that workouts' `<FileReference path=…>`s name: inside the
/// `export.zip` being read, or in the folder of an unpacked `export.xml` (SPEC §13).
enum WorkoutRouteFiles {
    /// Route files are entries of this archive.
    case archive(ExportArchive)
    /// Route files lie under this folder (the one holding `export.xml`).
    case folder(String)

    /// The route files of an `export.xml` at `path`: those in its folder.
    static func besideExport(atPath path: String) -> WorkoutRouteFiles {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return .folder(folder.isEmpty && !path.hasPrefix("/") ? "." : folder)
    }

    /// Reads the route file `reference` names into a location series.
    ///
    /// - Returns: The points, and the reader's summary (points skipped).
    /// - Throws: ``CadenceError``: `notFound` when there is no such file; what ``GPXReader`` or the
    ///   archive throws when it cannot be read whole.
    func read(_ reference: String, limits: GPXReader.Limits = GPXReader.Limits()) throws -> (LocationSeries, GPXReader.Summary) {
        switch self {
        case .archive(let archive):
            guard let entryPath = archive.routeEntryPath(forReference: reference) else {
                throw CadenceError(.notFound, "the route file \(reference) is not in the archive", path: archive.path)
            }
            var reader = GPXReader(limits: limits, path: archive.path + "/" + entryPath)
            try archive.streamRoute(atEntryPath: entryPath) { try reader.feed($0) }
            return (try reader.finish(), reader.summary)
        case .folder(let folder):
            let relative = reference.drop { $0 == "/" }
            guard !relative.split(separator: "/").contains("..") else {
                throw CadenceError(.hostileInput, "the route file \(reference) climbs out of the export's folder")
            }
            let path = folder + "/" + relative
            let source = try FileByteSource(path: path)
            var reader = GPXReader(limits: limits, path: path)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let count = try source.read(into: buffer)
                guard count > 0 else { break }
                try reader.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
            return (try reader.finish(), reader.summary)
        }
    }
}
