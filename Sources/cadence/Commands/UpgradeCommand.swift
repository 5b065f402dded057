//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence upgrade`: rewrite a store's chunk files of older format versions in the current one.
///
///     cadence upgrade --store health
struct UpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Rewrite a store's chunk files of older format versions in the current layout.",
        discussion: """
            Older chunk files are read as they are, but keep their layout until rewritten; \
            `cadence info` counts them. Every sample, deleted-sample record, source priority and \
            change anchor is kept exactly, so queries and `cadence changes` answer as before. A \
            store already current is left untouched. Safe to interrupt: the store keeps either its \
            old or its new files. Like every writing command, it is refused while another process \
            writes to the store, or waits for it with --wait. A damaged store is refused and left \
            as it is: run `cadence verify` and `cadence repair` first.
            """)

    @OptionGroup var storeOptions: WritableStoreOptions

    @OptionGroup var output: ReportFormatOptions

    func validate() throws {
        try output.validate(in: "upgrade")
    }

    func run() throws {
        let store = try storeOptions.openExistingForWriting()
        let report: UpgradeReport
        do {
            report = try store.upgrade()
        } catch {
            try? store.close()
            throw error
        }
        try store.close()
        let name = TerminalText.escaped(storeOptions.store)
        output.write(json: {
            JSONValue.object([
                ("formatVersion", .integer(report.formatVersion)),
                ("chunks", .integer(report.chunks)),
                ("bytesBefore", .integer(report.bytesBefore)),
                ("bytesAfter", .integer(report.bytesAfter)),
                ("types", .array(report.types.map { type in
                    .object([
                        ("type", .string(type.identifier)),
                        ("chunks", .integer(type.chunks)),
                        ("bytesBefore", .integer(type.bytesBefore)),
                        ("bytesAfter", .integer(type.bytesAfter)),
                    ])
                })),
            ])
        }, table: { output in
            guard !report.isEmpty else {
                output.writeLine("Nothing to upgrade: every chunk file of \(name) is of format version \(report.formatVersion).")
                return
            }
            var table = TableRenderer(columns: [
                .init("Type"), .init("Chunks", alignment: .right), .init("Before", alignment: .right),
                .init("After", alignment: .right),
            ])
            for type in report.types {
                table.append([type.identifier, String(type.chunks), ByteCountText.format(type.bytesBefore),
                              ByteCountText.format(type.bytesAfter)])
            }
            table.append(["total", String(report.chunks), ByteCountText.format(report.bytesBefore),
                          ByteCountText.format(report.bytesAfter)])
            output.write(table.render())
            output.writeLine("Upgraded \(name) to format version \(report.formatVersion): \(report.chunks) chunk file"
                             + "\(report.chunks == 1 ? "" : "s") rewritten.")
        })
    }
}
