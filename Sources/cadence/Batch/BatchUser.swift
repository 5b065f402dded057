//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// One user of `cadence batch`: an identifier and the store that holds the user's samples.
struct BatchUser: Equatable {
    /// The identifier written in the output's `user` column.
    var identifier: String
    /// The store's directory.
    var store: String

    /// Byte for byte: users (and store paths) differing only in Unicode normalisation are
    /// different (see How Cadence computes, Identity).
    static func == (lhs: BatchUser, rhs: BatchUser) -> Bool {
        lhs.identifier.isIdentical(to: rhs.identifier) && lhs.store.isIdentical(to: rhs.store)
    }

    /// Every store in `directory`: each subdirectory not starting with a dot, named for its user,
    /// in name order.
    ///
    /// - Throws: ``CadenceError`` when the directory cannot be read.
    static func stores(in directory: String) throws -> [BatchUser] {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CadenceError(.notFound, "there is no directory of stores here", path: directory)
        }
        return try POSIXFileSystem().contentsOfDirectory(directory).compactMap { name in
            guard !name.hasPrefix(".") else { return nil }
            let path = (directory as NSString).appendingPathComponent(name)
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
            return BatchUser(identifier: name, store: path)
        }
    }

    /// The users of a CSV list of `user_id,store_path` rows (`-` reads standard input), in list
    /// order. A first row `user_id,store_path` (or `user,store`) is a header and skipped; relative
    /// store paths are relative to the list's directory. Identifiers are told apart byte for byte.
    ///
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/malformedInput`` naming the line of a
    ///   row without two fields or of a user listed twice; `notFound`/`io` when the list cannot be read.
    static func list(at path: String) throws -> [BatchUser] {
        let bytes = path == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile())
                                : try POSIXFileSystem().readFile(path)
        let name = path == "-" ? "<stdin>" : path
        let base = path == "-" ? FileManager.default.currentDirectoryPath : (path as NSString).deletingLastPathComponent
        var reader = try CSVReader(options: CSVReader.Options(hasHeader: false), path: name)
        var users: [BatchUser] = []
        var firstLine: [ExactString: Int] = [:]
        var isFirstRow = true
        let handler: (CSVRow) throws -> Void = { row in
            let fields = row.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            defer { isFirstRow = false }
            if isFirstRow && [["user_id", "store_path"], ["user", "store"]].contains(fields) { return }
            guard fields.count == 2, !fields[0].isEmpty, !fields[1].isEmpty else {
                throw CadenceError(.malformedInput, "expected two fields, user_id,store_path", path: name, line: row.line)
            }
            if let earlier = firstLine[ExactString(fields[0])] {
                throw CadenceError(.malformedInput, "user '\(fields[0])' is listed twice (first at line \(earlier))",
                                   path: name, line: row.line)
            }
            firstLine[ExactString(fields[0])] = row.line
            let store = fields[1].hasPrefix("/") || base.isEmpty ? fields[1] : (base as NSString).appendingPathComponent(fields[1])
            users.append(BatchUser(identifier: fields[0], store: store))
        }
        try bytes.withUnsafeBytes { try reader.feed($0, to: handler) }
        let summary = try reader.finish(to: handler)
        if let issue = summary.issues.first {
            throw CadenceError(.malformedInput, issue.reason, path: name, line: issue.line)
        }
        return users
    }
}
