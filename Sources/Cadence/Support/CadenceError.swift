//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An error thrown by Cadence: what went wrong, where, and why.
///
///     do {
///         try store.save(samples)
///     } catch let error as CadenceError where error.code == .corruptFile {
///         print("damaged:", error.path ?? "?")
///     }
///
/// The ``Code`` is a struct over a private enum so that new codes can be added without breaking
/// anyone's `switch`. ``message`` is one sentence meant for a person; ``path`` and ``line`` name
/// the file and line (or record) the error is about, when there is one.
public struct CadenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case invalidArgument, invalidQuery, unknownType, unknownUnit, incompatibleUnits
            case malformedInput, corruptFile, unsupportedFormatVersion, storeLocked, readOnly
            case io, compression, anchorExpired, anchorAhead, foreignAnchor, notFound, hostileInput, closed
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// An argument is out of its domain (a negative limit, start after end, NaN).
        public static let invalidArgument = Code(.invalidArgument)
        /// A query was built with options or components that cannot go together.
        public static let invalidQuery = Code(.invalidQuery)
        /// A quantity type identifier that Cadence does not know.
        public static let unknownType = Code(.unknownType)
        /// A unit string that does not follow HealthKit's unit grammar.
        public static let unknownUnit = Code(.unknownUnit)
        /// A conversion between units of different dimensions.
        public static let incompatibleUnits = Code(.incompatibleUnits)
        /// An input record or file that cannot be read (a malformed row, a truncated file).
        public static let malformedInput = Code(.malformedInput)
        /// A store file whose checksum or structure is wrong. Never returned as data.
        public static let corruptFile = Code(.corruptFile)
        /// A store written in an on-disk format version this build does not read.
        public static let unsupportedFormatVersion = Code(.unsupportedFormatVersion)
        /// Another process holds the store's writer lock.
        public static let storeLocked = Code(.storeLocked)
        /// A write was attempted on a store opened read-only.
        public static let readOnly = Code(.readOnly)
        /// The operating system refused an I/O call (short write, EIO, ENOSPC, fsync failure).
        public static let io = Code(.io)
        /// LZ4 failed to compress or decompress a block.
        public static let compression = Code(.compression)
        /// An anchor older than the store's retained deletions.
        public static let anchorExpired = Code(.anchorExpired)
        /// An anchor from a later change than the store holds (the store was restored from an older
        /// backup): the changes it stands for are gone.
        public static let anchorAhead = Code(.anchorAhead)
        /// An anchor that belongs to a different store.
        public static let foreignAnchor = Code(.foreignAnchor)
        /// A file, type or object that does not exist.
        public static let notFound = Code(.notFound)
        /// An input that tries to escape or exhaust its reader (path traversal, zip bomb, entity expansion).
        public static let hostileInput = Code(.hostileInput)
        /// The store was closed, or a previous fatal I/O error poisoned its writer.
        public static let closed = Code(.closed)

        public var description: String { wrapped.rawValue }
    }

    /// The kind of error.
    public var code: Code
    /// One sentence for a person: what went wrong and, where it helps, how to remedy it.
    public var message: String
    /// The file the error is about, if any.
    public var path: String?
    /// The line (or record number) in ``path`` the error is about, if any.
    public var line: Int?

    /// Creates an error.
    public init(_ code: Code, _ message: String, path: String? = nil, line: Int? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.line = line
    }

    public var description: String {
        var location = ""
        if let path { location = path + (line.map { ":\($0)" } ?? "") + ": " }
        else if let line { location = "line \(line): " }
        return location + message
    }

    /// The same error, attributed to a file (and line) when it had none.
    package func located(path: String?, line: Int? = nil) -> CadenceError {
        var copy = self
        if copy.path == nil { copy.path = path }
        if copy.line == nil { copy.line = line }
        return copy
    }
}
