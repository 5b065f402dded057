//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// What reading some CSV gave.
private struct CSVOutcome {
    var rows: [CSVRow] = []
    var summary: CSVReadSummary?
    var error: (any Error)?
}

/// Feeds `bytes` to a reader in blocks of `blockSize`, then finishes it.
private func readCSV(
    _ bytes: [UInt8], blockSize: Int = 1 << 20, options: CSVReader.Options = CSVReader.Options()
) -> CSVOutcome {
    var outcome = CSVOutcome()
    do {
        var reader = try CSVReader(options: options, path: "test.csv")
        do {
            try bytes.withUnsafeBytes { buffer in
                var start = 0
                while start < buffer.count {
                    let end = min(buffer.count, start + blockSize)
                    try reader.feed(UnsafeRawBufferPointer(rebasing: buffer[start..<end])) { outcome.rows.append($0) }
                    start = end
                }
            }
            outcome.summary = try reader.finish { outcome.rows.append($0) }
        } catch {
            outcome.error = error
            outcome.summary = reader.summary
        }
    } catch {
        outcome.error = error
    }
    return outcome
}

private func readCSV(
    _ text: String, blockSize: Int = 1 << 20, options: CSVReader.Options = CSVReader.Options()
) -> CSVOutcome {
    readCSV(Array(text.utf8), blockSize: blockSize, options: options)
}

@Suite("CSVReader")
struct CSVReaderTests {
    @Test("Quoted commas, line breaks and quotes; rows keep the line where they start",
          arguments: [1, 2, 5, 1 << 20])
    func quotedFields(blockSize: Int) throws {
        let text = "type,value,note\n"
            + "StepCount,12,\"plain\"\n"
            + "HeartRate,\"1,5\",\"said \"\"hi\"\"\"\n"
            + "Note,3,\"two\nlines\r\nthree\"\n"
            + "Last,4,\"\"\n"
        let outcome = readCSV(text, blockSize: blockSize)
        #expect(outcome.error == nil)
        #expect(outcome.rows.map(\.fields) == [
            ["StepCount", "12", "plain"],
            ["HeartRate", "1,5", "said \"hi\""],
            ["Note", "3", "two\nlines\r\nthree"],
            ["Last", "4", ""],
        ])
        #expect(outcome.rows.map(\.line) == [2, 3, 4, 7])
        #expect(outcome.rows[1]["value"] == "1,5")
        #expect(outcome.rows[1][column: "note"] == "said \"hi\"")
        #expect(outcome.rows[1]["missing"] == nil)
        #expect(outcome.rows[1][2] == "said \"hi\"")
        #expect(outcome.rows[1][3] == nil)
        let summary = try #require(outcome.summary)
        #expect(summary.columns?.names == ["type", "value", "note"])
        #expect(summary.rowCount == 4)
        #expect(summary.malformedRowCount == 0)
        #expect(summary.lineCount == 8)
    }

    @Test("CRLF, lone CR, a byte order mark, blank lines and a last row without a line break",
          arguments: [1, 3, 1 << 20])
    func lineBreaks(blockSize: Int) throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a,b\r\n1,2\r\n\r\n3,4\r5,6\n\n7,\u{2019}".utf8)
        let outcome = readCSV(bytes, blockSize: blockSize)
        #expect(outcome.error == nil)
        #expect(outcome.summary?.columns?.names == ["a", "b"])
        #expect(outcome.rows.map(\.fields) == [["1", "2"], ["3", "4"], ["5", "6"], ["7", "\u{2019}"]])
        #expect(outcome.rows.map(\.line) == [2, 4, 5, 7])
        #expect(outcome.summary?.blankLineCount == 2)
        #expect(outcome.rows.first?["a"] == "1")
    }

    @Test("A 10 MB line is one malformed row; the rest are read", arguments: [1 << 20, 65_536])
    func hugeLine(blockSize: Int) throws {
        var text = "a,b\n1,2\n"
        text += "x," + String(repeating: "y", count: 10_000_000) + "\n"
        text += "\"quoted " + String(repeating: "z", count: 2_000_000) + "\n,still quoted\",q\n"
        text += "3,4\n"
        let outcome = readCSV(text, blockSize: blockSize)
        #expect(outcome.error == nil)
        #expect(outcome.rows.map(\.fields) == [["1", "2"], ["3", "4"]])
        #expect(outcome.rows.map(\.line) == [2, 6])
        let summary = try #require(outcome.summary)
        #expect(summary.malformedRowCount == 2)
        #expect(summary.issues.map(\.line) == [3, 4])
        #expect(summary.issues.first?.reason.contains("longer than 1048576 bytes") == true)
    }

    @Test("An unterminated quote at the end is a malformed row; rows before it are read")
    func unterminatedQuote() throws {
        let outcome = readCSV("a,b\n1,2\n3,\"never closed\n4,5\n")
        #expect(outcome.error == nil)
        #expect(outcome.rows.map(\.fields) == [["1", "2"]])
        let summary = try #require(outcome.summary)
        #expect(summary.malformedRowCount == 1)
        #expect(summary.issues.first?.line == 3)
        #expect(summary.issues.first?.reason.contains("not closed") == true)
    }

    @Test("Sloppy quotes are read leniently; too many fields make a row malformed")
    func leniency() throws {
        let options = CSVReader.Options(maxFieldCount: 3)
        let outcome = readCSV("a,b,c\n5\",\"ab\"c,x\n1,2,3,4\n,,\n", options: options)
        #expect(outcome.error == nil)
        #expect(outcome.rows.map(\.fields) == [["5\"", "abc", "x"], ["", "", ""]])
        #expect(outcome.summary?.malformedRowCount == 1)
        #expect(outcome.summary?.issues.first?.line == 3)
    }

    @Test("Other delimiters, no header, and a delimiter that cannot work")
    func options() throws {
        let outcome = readCSV("1;2\n3;\"4;5\"\n", options: CSVReader.Options(delimiter: ";", hasHeader: false))
        #expect(outcome.rows.map(\.fields) == [["1", "2"], ["3", "4;5"]])
        #expect(outcome.rows.first?.columns == nil)
        #expect(outcome.summary?.columns == nil)
        #expect(throws: CadenceError.self) { try CSVReader(options: CSVReader.Options(delimiter: "\"")) }
        #expect(throws: CadenceError.self) { try CSVReader(options: CSVReader.Options(delimiter: "\u{2019}")) }
    }

    @Test("A malformed header stops reading; invalid UTF-8 becomes U+FFFD")
    func headerAndEncoding() throws {
        let header = readCSV("\"a,b\n", options: CSVReader.Options())
        #expect((header.error as? CadenceError)?.code == .malformedInput)
        let bytes = Array("a\n".utf8) + [0x66, 0xFF, 0x67, 0x0A]
        let outcome = readCSV(bytes)
        #expect(outcome.rows.first?.fields == ["f\u{FFFD}g"])
    }

    @Test("read(fileAt:) streams a file and names a missing one")
    func files() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("rows.csv")
        var text = "startDate,value\n"
        for index in 0..<50_000 { text += "2024-01-01 00:00:\(index % 60),\"\(index)\"\n" }
        try Data(text.utf8).write(to: url)
        var sum = 0
        let summary = try CSVReader.read(fileAt: url.path) { row in sum += Int(row["value"] ?? "") ?? 0 }
        #expect(summary.rowCount == 50_000)
        #expect(sum == (0..<50_000).reduce(0, +))
        #expect {
            _ = try CSVReader.read(fileAt: directory.appendingPathComponent("missing.csv").path) { _ in }
        } throws: { ($0 as? CadenceError)?.code == .notFound }
    }
}
