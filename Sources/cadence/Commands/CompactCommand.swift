//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence compact`: rewrite a store's chunk files without its deleted samples.
///
///     cadence compact --store health
///     cadence compact --store health --forget-deletions
struct CompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Rewrite a store's chunk files without deleted samples, merging small chunks.",
        discussion: """
            Deletes compact a type on their own once a quarter of its samples are deleted; this \
            compacts every type now. The record of deleted samples that `cadence changes` reports \
            is kept unless --forget-deletions is given. Safe to interrupt: the store keeps either \
            its old or its new files.
            """)

    @OptionGroup var storeOptions: WritableStoreOptions

    @Flag(help: """
        Also forget which samples were deleted; `cadence changes` then refuses anchors from \
        before now, and their holders must start again without one, and importing a file again \
        stores its deleted samples again.
        """)
    var forgetDeletions = false

    @OptionGroup var output: ReportFormatOptions

    func validate() throws {
        try output.validate(in: "compact")
    }

    func run() throws {
        let store = try storeOptions.openExistingForWriting()
        let before = try store.info()
        try store.compact(discardingDeletionsBefore: forgetDeletions ? before.lastSequence : nil)
        let after = try store.info()
        try store.close()
        output.write(json: {
            JSONValue.object([
                ("chunkBytesBefore", .integer(before.totalChunkBytes)),
                ("chunkBytesAfter", .integer(after.totalChunkBytes)),
                ("deletedObjects", .integer(after.deletedObjects)),
            ])
        }, table: { output in
            output.writeLine("Compacted \(TerminalText.escaped(storeOptions.store)): chunk files \(ByteCountText.format(before.totalChunkBytes)) "
                             + "→ \(ByteCountText.format(after.totalChunkBytes)), \(after.deletedObjects) deleted samples remembered.")
        })
    }
}
