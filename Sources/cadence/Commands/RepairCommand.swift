//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence repair`: salvage what is intact in a damaged store.
///
///     cadence verify --store health || cadence repair --store health
///
/// Drops damaged chunk files from the manifest and cuts log segments before their first damaged
/// record, reporting what was lost; an intact store is left unchanged.
struct RepairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Salvage what is intact in a damaged store, reporting what is lost.")

    @OptionGroup var storeOptions: WritableStoreOptions

    @OptionGroup var output: ReportFormatOptions

    func validate() throws {
        try output.validate(in: "repair")
    }

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: storeOptions.store, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CadenceError(.notFound, "there is no store here", path: storeOptions.store)
        }
        let report = try HealthStore.repair(at: storeOptions.store, waitForWriter: storeOptions.wait)
        output.write(json: {
            JSONValue.object([
                ("intact", .bool(report.wasIntact)),
                ("samplesLost", .integer(report.samplesLost)),
                ("logRecordsLost", .integer(report.logRecordsLost)),
                ("damaged", .array(report.damage.map { .object([("path", .string($0.path)), ("action", .string($0.action))]) })),
            ])
        }, table: { output in
            for damage in report.damage { output.writeLine("repaired: \(TerminalText.escaped("\(damage)"))") }
            output.writeLine(report.wasIntact
                ? "OK: \(TerminalText.escaped(storeOptions.store)) is intact; nothing was changed."
                : "Repaired \(TerminalText.escaped(storeOptions.store)): \(report.samplesLost) samples and \(report.logRecordsLost) log records lost.")
        })
    }
}
