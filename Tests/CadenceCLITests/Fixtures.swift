//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// The real Apple Health export the tests import, and a store imported from it once and shared by
/// the tests that only read.
enum Fixtures {
    /// `Tests/Fixtures/apple-health/hkimport-export.xml` (a real export; its origin and licence are
    /// in that folder's README).
    static let hkimportExport: Result<URL, HarnessError> = {
        let url = CadenceBinary.packageRoot.appendingPathComponent("Tests/Fixtures/apple-health/hkimport-export.xml")
        guard FileManager.default.fileExists(atPath: url.path) else {
            return .failure(HarnessError(description: "The fixture \(url.path) is missing."))
        }
        return .success(url)
    }()

    /// A store holding `hkimport-export.xml`, and what `cadence import --format json` printed.
    struct ImportedStore: Sendable {
        var store: String
        var importOutput: String
    }

    /// Imported once for all the tests that only read it; tests that change a store copy it first.
    /// (Its temporary directory outlives the tests on purpose: any of them may still be reading it.)
    static let hkimportStore: Result<ImportedStore, HarnessError> = {
        do {
            let export = try hkimportExport.get()
            let directory = try TemporaryDirectory()
            let store = directory.path("store")
            let result = try CadenceBinary.run(["import", export.path, "--store", store, "--format", "json"])
            guard result.status == 0 else {
                return .failure(HarnessError(description: "importing \(export.path) failed: \(result.standardError)"))
            }
            return .success(ImportedStore(store: store, importOutput: result.standardOutput))
        } catch let error as HarnessError {
            return .failure(error)
        } catch {
            return .failure(HarnessError(description: "\(error)"))
        }
    }()

    /// A copy of the shared store in `directory`, for tests that write.
    static func copyOfHKImportStore(in directory: TemporaryDirectory) throws -> String {
        let source = try hkimportStore.get().store
        let destination = directory.path("store-copy")
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        return destination
    }

    /// What the export should import, counted from the XML text independently of Cadence.
    struct ExpectedCounts {
        /// Top-level quantity and category records, correlations and workouts, per type.
        var records: [String: Int] = [:]
        /// Samples per type: every top-level record is one, look-alikes included (<doc:HowCadenceComputes#Identity>).
        var samples: [String: Int] { records }
    }

    /// Counts the quantity and category records, the correlations and the workouts of an export,
    /// line by line.
    ///
    /// Each `<Record …>`, `<Correlation …>` or `<Workout …>` start tag is on one line. Records inside a `<Correlation>` are skipped:
    /// the export repeats them at top level, and Cadence imports them once from there. Records that
    /// look alike (the file has 166 such repeats, for example two "Bananas" entries minutes apart)
    /// are distinct objects and each is a sample (<doc:HowCadenceComputes#Identity>).
    static func expectedCounts(of export: URL) throws -> ExpectedCounts {
        let text = try String(contentsOf: export, encoding: .utf8)
        var counts = ExpectedCounts()
        var insideCorrelation = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.contains("<Correlation ") {
                insideCorrelation = !line.contains("/>")
                counts.records[Self.attributes(of: line)["type"] ?? "", default: 0] += 1
            }
            if line.contains("</Correlation>") { insideCorrelation = false }
            if line.contains("<Workout ") { counts.records["HKWorkoutTypeIdentifier", default: 0] += 1 }
            guard !insideCorrelation, line.contains("<Record type=\"HKQuantityTypeIdentifier")
                || line.contains("<Record type=\"HKCategoryTypeIdentifier") else { continue }
            counts.records[Self.attributes(of: line)["type"] ?? "", default: 0] += 1
        }
        return counts
    }

    /// The `name="value"` attributes of one XML start tag (values left escaped).
    static func attributes(of line: Substring) -> [String: String] {
        var attributes: [String: String] = [:]
        var rest = line[...]
        while let equals = rest.range(of: "=\"") {
            let name = rest[..<equals.lowerBound].split(separator: " ").last.map(String.init) ?? ""
            let valueStart = equals.upperBound
            guard let close = rest[valueStart...].firstIndex(of: "\"") else { break }
            attributes[name] = String(rest[valueStart..<close])
            rest = rest[rest.index(after: close)...]
        }
        return attributes
    }
}
