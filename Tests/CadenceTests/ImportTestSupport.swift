//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// Fixtures and helpers shared by the import reader tests.
enum ImportFixtures {
    /// An error that makes a test fail with a message that says what is missing.
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The repository root: this file is `Tests/CadenceTests/ImportTestSupport.swift`.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/Fixtures/apple-health/` (real exports, with their licences and origin in its README);
    /// a missing folder fails the test.
    static func appleHealthDirectory() throws -> URL {
        let directory = repositoryRoot.appendingPathComponent("Tests/Fixtures/apple-health", isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
              isDirectory.boolValue else {
            throw Missing(description: "the Apple Health fixtures are missing: expected them in \(directory.path)")
        }
        return directory
    }

    /// The path of one Apple Health fixture; a missing file fails the test.
    static func appleHealthFile(_ name: String) throws -> String {
        let path = try appleHealthDirectory().appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw Missing(description: "the Apple Health fixture \(name) is missing: expected it at \(path)")
        }
        return path
    }

    /// The four shared Apple Health exports.
    static let exportNames = [
        "hkimport-export.xml", "tdda-export6s3sample.xml", "dogsheep-export.xml", "alxdrcirilo-export.xml",
    ]

    /// A new empty folder under the system's temporary folder.
    static func makeTemporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cadence-import-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// What reading some XML gave.
    struct XMLOutcome {
        var records: [ExportRecord] = []
        var summary: ExportReadSummary?
        var error: (any Error)?

        /// The error as a ``CadenceError``, if it is one.
        var cadenceError: CadenceError? { error as? CadenceError }
    }

    /// Feeds `bytes` to a reader in blocks of `blockSize`, then finishes it.
    static func readXML(
        _ bytes: [UInt8], blockSize: Int = 1 << 20, limits: ExportXMLReader.Limits = ExportXMLReader.Limits()
    ) -> XMLOutcome {
        var outcome = XMLOutcome()
        var reader = ExportXMLReader(limits: limits, path: "test.xml")
        do {
            try bytes.withUnsafeBytes { buffer in
                var start = 0
                repeat {
                    let end = min(buffer.count, start + blockSize)
                    try reader.feed(UnsafeRawBufferPointer(rebasing: buffer[start..<end])) { outcome.records.append($0) }
                    start = end
                } while start < buffer.count
            }
            outcome.summary = try reader.finish()
        } catch {
            outcome.error = error
            outcome.summary = reader.summary
        }
        return outcome
    }

    /// Feeds a string's UTF-8 to a reader, then finishes it.
    static func readXML(
        _ text: String, blockSize: Int = 1 << 20, limits: ExportXMLReader.Limits = ExportXMLReader.Limits()
    ) -> XMLOutcome {
        readXML(Array(text.utf8), blockSize: blockSize, limits: limits)
    }

    /// A small well-formed export around `body`.
    static func export(_ body: String, doctype: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        \(doctype)<HealthData locale="en_US">
         <ExportDate value="2024-01-01 10:00:00 +0000"/>
        \(body)
        </HealthData>

        """
    }

    /// One `<Record>` with the required attributes.
    static func record(
        type: String = "HKQuantityTypeIdentifierStepCount", source: String = "Phone", value: String = "1",
        extra: String = ""
    ) -> String {
        #" <Record type="\#(type)" sourceName="\#(source)" unit="count" "#
            + #"startDate="2024-01-01 08:00:00 +0000" endDate="2024-01-01 08:01:00 +0000" value="\#(value)"\#(extra)/>"#
    }

    /// A fingerprint of a record, to compare two reads.
    static func fingerprint(_ record: ExportRecord) -> String {
        let metadata = record.metadata.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
        return [
            record.type, record.sourceName, record.sourceVersion ?? "-", record.device ?? "-", record.unit ?? "-",
            record.creationDate ?? "-", record.startDate, record.endDate, record.value ?? "-", metadata,
            String(record.line), String(record.isInsideCorrelation),
        ].joined(separator: "|")
    }
}
