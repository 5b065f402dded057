//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The directory that makes `cadence batch --output FILE` resumable: `FILE.parts/`.
///
/// Each user's rows are written to a temporary file, synced, and renamed to the user's part file:
/// the rename is the commit, so a part is either whole or absent whatever moment the run is killed
/// at, and the part files present are the list of users done. A run started again with the same
/// query skips those users and repeats none. When every user is done the parts are joined, in
/// user order, into `FILE` (written aside, synced and renamed over it, and `FILE`'s directory
/// synced so the rename is durable) and only then is the parts directory removed: a power loss
/// in between leaves the joined file or the parts, never neither. While some users failed, the
/// directory is kept for the next run to retry them.
///
/// The `job` file holds the query the parts were computed with: a different query refuses to
/// resume rather than mix results. A lock file keeps two runs from sharing the directory.
struct BatchParts {
    /// The directory.
    let path: String
    /// The users whose parts were committed when the run started.
    let committed: Set<String>
    private let fileSystem: any FileSystem
    private let lock: any FileLock

    /// Opens (creating when needed) the parts directory for `output`.
    ///
    /// - Parameter job: A description of the query; it must equal the one the parts were made with.
    /// - Throws: ``CadenceError`` when the directory belongs to another query or another run holds
    ///   it, or on an I/O failure.
    init(output: String, job: String, fileSystem: any FileSystem = POSIXFileSystem()) throws {
        self.fileSystem = fileSystem
        path = output + ".parts"
        try fileSystem.createDirectory(path)
        guard let lock = try fileSystem.lockExclusively(path + "/lock", waiting: false) else {
            throw CadenceError(.storeLocked, "another cadence batch is writing these parts", path: path)
        }
        self.lock = lock
        let jobPath = path + "/job"
        if fileSystem.exists(jobPath) {
            let earlier = String(decoding: try fileSystem.readFile(jobPath), as: UTF8.self)
            guard earlier == job else {
                throw CadenceError(.invalidArgument,
                                   "these parts were computed with other options (\(earlier.split(separator: "\n").joined(separator: " "))); run with those options or remove the directory",
                                   path: path)
            }
        } else {
            try fileSystem.writeFile(jobPath + ".new", Array(job.utf8))
            try fileSystem.rename(jobPath + ".new", to: jobPath)
        }
        var committed = Set<String>()
        for name in try fileSystem.contentsOfDirectory(path) {
            if name.hasPrefix(".tmp-") {
                // Left by a killed run before its rename: never committed.
                try fileSystem.remove(path + "/" + name)
            } else if name.hasSuffix(Self.partExtension) {
                committed.insert(String(name.dropLast(Self.partExtension.count)))
            }
        }
        self.committed = committed
    }

    private static let partExtension = ".part"

    /// Whether `user`'s part was committed by an earlier run.
    func isCommitted(_ user: String) -> Bool { committed.contains(Self.fileName(for: user)) }

    /// Commits `user`'s rows: written aside, synced, then renamed into place.
    ///
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/io``.
    func commit(_ text: String, for user: String) throws {
        let name = Self.fileName(for: user)
        let temporary = "\(path)/.tmp-\(name)"
        try fileSystem.writeFile(temporary, Array(text.utf8))
        try fileSystem.rename(temporary, to: "\(path)/\(name)\(Self.partExtension)")
    }

    /// Joins the parts of `users` that exist, in order, into `output`, keeping the first
    /// `headerLines` lines of the first part only (the CSV header each part starts with).
    ///
    /// - Returns: How many users' parts were joined.
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/io``.
    func join(_ users: [BatchUser], into output: String, headerLines: Int) throws -> Int {
        let temporary = output + ".partial"
        try fileSystem.writeFile(temporary, [])
        let file = try fileSystem.openForAppending(temporary)
        defer { file.close() }
        var joined = 0
        for user in users {
            let partPath = "\(path)/\(Self.fileName(for: user.identifier))\(Self.partExtension)"
            guard fileSystem.exists(partPath) else { continue }
            var bytes = try fileSystem.readFile(partPath)[...]
            if joined > 0 {
                for _ in 0..<headerLines {
                    guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { break }
                    bytes = bytes[(newline + 1)...]
                }
            }
            try file.append(Array(bytes))
            joined += 1
        }
        try file.sync()
        try fileSystem.rename(temporary, to: output)
        // The rename is durable only once the directory is synced; the parts are removed after.
        try fileSystem.syncDirectory(directoryName(of: output))
        return joined
    }

    /// Deletes the directory once its parts are joined.
    func remove() throws {
        for name in try fileSystem.contentsOfDirectory(path) { try fileSystem.remove(path + "/" + name) }
        lock.unlock()
        guard rmdir(path) == 0 || errno == ENOENT else {
            throw CadenceError(.io, "the parts directory could not be removed: \(String(cString: strerror(errno)))", path: path)
        }
    }

    /// A file name for `user`: letters, digits, `-` and `_` kept, other bytes as `%XX` (so
    /// distinct users get distinct names); a name too long for the file system ends in a hash.
    static func fileName(for user: String) -> String {
        var name = ""
        for byte in user.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80 && (character.isLetter || character.isNumber || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")) {
                name.append(character)
            } else {
                name += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        guard name.utf8.count > 200 else { return name }
        // FNV-1a over the whole identifier keeps long names apart.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in user.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(name.prefix(180)) + "~" + String(hash, radix: 16).leftPadded(to: 16)
    }
}

private extension String {
    /// The string with zeros in front up to `width` characters.
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
