//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization
@testable import Cadence

/// A ``FileSystem`` that forwards every call to another one and can be told to fail the *N*th
/// call of a kind, the way a disk or kernel would: a short write, `EIO`, `ENOSPC`, or a failed
/// `fsync`. The injected error is a ``CadenceError`` with code ``CadenceError/Code/io`` naming the
/// path, and its message ends in "(injected)".
///
/// Calls are counted per fault kind from the wrapper's creation, so a run without a fault
/// (``counts``) tells how many values of *N* a workload offers. Reads (`readFile`, `exists`,
/// `contentsOfDirectory`) are never failed.
final class FaultInjectingFileSystem: FileSystem {
    /// What goes wrong.
    enum Fault: String, CaseIterable, Sendable, CustomStringConvertible {
        /// The *N*th data write (`writeFile` or an append) writes the first half of its bytes,
        /// then fails.
        case shortWrite
        /// The *N*th mutating call of any kind (writes, syncs, renames, removals, truncation,
        /// opening for appending, creating directories, locking) fails with `EIO`, doing nothing.
        case eio
        /// The *N*th data write fails with `ENOSPC`, writing nothing (a `writeFile` leaves an
        /// empty file behind, as `open(O_TRUNC)` would).
        case noSpace
        /// The *N*th sync (an appended file's `fsync`, the `fsync` that ends a `writeFile`, or a
        /// directory `fsync`) fails after the data reached the underlying file system.
        case syncFailure

        var description: String { rawValue }
    }

    /// A call of the file-system layer.
    enum Operation: String, Sendable {
        case createDirectory, writeFile, append, sync, syncDirectory, rename, remove, truncate, openForAppending, lock
    }

    /// The fault that was injected, and where.
    struct Injection: Sendable, CustomStringConvertible {
        var fault: Fault
        var operation: Operation
        var path: String
        /// The call just before the failed one (a save's directory sync follows its log sync).
        var previous: (operation: Operation, path: String)?
        var description: String { "\(fault) on \(operation) of \(path)" }
    }

    private struct State {
        var armed: (fault: Fault, call: Int)?
        var counts: [Fault: Int] = [:]
        var injection: Injection?
        /// Mutating calls made after the fault was injected.
        var callsAfterInjection = 0
        var lastCall: (operation: Operation, path: String)?
    }

    let base: any FileSystem
    private let state: Mutex<State>

    /// Wraps `base`; with a `fault`, fails the `call`th call (1-based) of that kind.
    init(wrapping base: any FileSystem, failing fault: Fault? = nil, atCall call: Int = 1) {
        self.base = base
        state = Mutex(State(armed: fault.map { ($0, call) }))
    }

    /// How many calls of each kind were seen.
    var counts: [Fault: Int] { state.withLock { $0.counts } }
    /// The injected fault, once it happened.
    var injection: Injection? { state.withLock { $0.injection } }
    /// How many mutating calls were made after the fault.
    var callsAfterInjection: Int { state.withLock { $0.callsAfterInjection } }

    /// Counts a call that is eligible for the `kinds` of fault and returns the fault to inject, if any.
    private func check(_ operation: Operation, _ path: String, _ kinds: [Fault]) -> Fault? {
        state.withLock { state in
            if state.injection != nil { state.callsAfterInjection += 1 }
            var hit: Fault?
            for kind in kinds {
                state.counts[kind, default: 0] += 1
                if let armed = state.armed, armed.fault == kind, armed.call == state.counts[kind] {
                    hit = kind
                    state.armed = nil
                    state.injection = Injection(fault: kind, operation: operation, path: path, previous: state.lastCall)
                }
            }
            state.lastCall = (operation, path)
            return hit
        }
    }

    static func failure(_ fault: Fault, _ operation: Operation, _ path: String) -> CadenceError {
        let reason = switch fault {
        case .shortWrite: "write failed: short write"
        case .eio: "\(operation) failed: Input/output error"
        case .noSpace: "write failed: No space left on device"
        case .syncFailure: "fsync failed: Input/output error"
        }
        return CadenceError(.io, reason + " (injected)", path: path)
    }

    func createDirectory(_ path: String) throws {
        if let fault = check(.createDirectory, path, [.eio]) { throw Self.failure(fault, .createDirectory, path) }
        try base.createDirectory(path)
    }

    func exists(_ path: String) -> Bool { base.exists(path) }

    func contentsOfDirectory(_ path: String) throws -> [String] { try base.contentsOfDirectory(path) }

    func readFile(_ path: String) throws -> [UInt8] { try base.readFile(path) }

    func fileSize(_ path: String) throws -> Int { try base.fileSize(path) }

    func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        switch check(.writeFile, path, [.shortWrite, .noSpace, .eio, .syncFailure]) {
        case .shortWrite:
            try base.writeFile(path, Array(bytes.prefix(bytes.count / 2)))
            throw Self.failure(.shortWrite, .writeFile, path)
        case .noSpace:
            try base.writeFile(path, [])
            throw Self.failure(.noSpace, .writeFile, path)
        case .eio:
            throw Self.failure(.eio, .writeFile, path)
        case .syncFailure:
            try base.writeFile(path, bytes)
            throw Self.failure(.syncFailure, .writeFile, path)
        case nil:
            try base.writeFile(path, bytes)
        }
    }

    func openForAppending(_ path: String) throws -> any AppendableFile {
        if let fault = check(.openForAppending, path, [.eio]) { throw Self.failure(fault, .openForAppending, path) }
        return FaultInjectingAppendableFile(base: try base.openForAppending(path), path: path, fileSystem: self)
    }

    func rename(_ source: String, to destination: String) throws {
        if let fault = check(.rename, source, [.eio]) { throw Self.failure(fault, .rename, source) }
        try base.rename(source, to: destination)
    }

    func remove(_ path: String) throws {
        if let fault = check(.remove, path, [.eio]) { throw Self.failure(fault, .remove, path) }
        try base.remove(path)
    }

    func syncDirectory(_ path: String) throws {
        if let fault = check(.syncDirectory, path, [.syncFailure, .eio]) { throw Self.failure(fault, .syncDirectory, path) }
        try base.syncDirectory(path)
    }

    func truncate(_ path: String, to size: Int) throws {
        if let fault = check(.truncate, path, [.eio]) { throw Self.failure(fault, .truncate, path) }
        try base.truncate(path, to: size)
    }

    func lockExclusively(_ path: String, waiting: Bool) throws -> (any FileLock)? {
        if let fault = check(.lock, path, [.eio]) { throw Self.failure(fault, .lock, path) }
        return try base.lockExclusively(path, waiting: waiting)
    }

    fileprivate func append(_ bytes: [UInt8], to file: any AppendableFile, path: String) throws {
        switch check(.append, path, [.shortWrite, .noSpace, .eio]) {
        case .shortWrite:
            try file.append(Array(bytes.prefix(bytes.count / 2)))
            throw Self.failure(.shortWrite, .append, path)
        case let fault?:
            throw Self.failure(fault, .append, path)
        case nil:
            try file.append(bytes)
        }
    }

    fileprivate func sync(_ file: any AppendableFile, path: String) throws {
        if let fault = check(.sync, path, [.syncFailure, .eio]) { throw Self.failure(fault, .sync, path) }
        try file.sync()
    }
}

/// An appendable file whose appends and syncs go through a ``FaultInjectingFileSystem``.
private final class FaultInjectingAppendableFile: AppendableFile {
    private let base: any AppendableFile
    private let path: String
    private let fileSystem: FaultInjectingFileSystem

    init(base: any AppendableFile, path: String, fileSystem: FaultInjectingFileSystem) {
        self.base = base
        self.path = path
        self.fileSystem = fileSystem
    }

    var size: Int { base.size }
    func append(_ bytes: [UInt8]) throws { try fileSystem.append(bytes, to: base, path: path) }
    func sync() throws { try fileSystem.sync(base, path: path) }
    func close() { base.close() }
}
