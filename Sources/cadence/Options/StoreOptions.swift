//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// The `--store DIR` option of the commands that only read a store.
struct StoreOptions: ParsableArguments, StoreLocation {
    @Option(help: ArgumentHelp("The store's directory (created by the first import).", valueName: "dir"))
    var store: String

    /// Accepted as the writing commands accept it, so scripts may pass it to any command; a
    /// reader never waits for a writer.
    @Flag(help: .hidden)
    var wait = false
}

/// The `--store DIR` and `--wait` options of the commands that write to a store.
struct WritableStoreOptions: ParsableArguments, StoreLocation {
    @Option(help: ArgumentHelp("The store's directory (created by the first import).", valueName: "dir"))
    var store: String

    @Flag(help: "When another process is writing to the store, wait for it to finish instead of failing.")
    var wait = false
}

/// A store named on the command line, and the ways a command opens it.
protocol StoreLocation {
    /// The store's directory.
    var store: String { get }
    /// Whether a writing open waits for another process's writer to finish.
    var wait: Bool { get }
}

extension StoreLocation {
    /// The options of a writing open.
    private var writingOptions: HealthStore.Options {
        var options = HealthStore.Options()
        options.waitForWriter = wait
        return options
    }

    /// Opens the store for reading: no lock is taken, so this works beside a running import, and a
    /// missing store is an error rather than a new empty one.
    func openForReading() throws -> HealthStore {
        try HealthStore.open(at: store, options: .readOnly)
    }

    /// Opens the store for writing, creating it when it does not exist.
    func openForWriting() throws -> HealthStore {
        try HealthStore.open(at: store, options: writingOptions)
    }

    /// Opens an existing store for writing; a missing store is an error rather than a new empty one.
    func openExistingForWriting() throws -> HealthStore {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: store, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CadenceError(.notFound, "there is no store here", path: store)
        }
        return try HealthStore.open(at: store, options: writingOptions)
    }
}
