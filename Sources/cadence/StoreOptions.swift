//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// The `--store DIR` option every command takes.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The store's directory (created by the first import).", valueName: "dir"))
    var store: String

    @Flag(help: "When another process is writing to the store, wait for it to finish instead of failing (commands that write).")
    var wait = false

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
