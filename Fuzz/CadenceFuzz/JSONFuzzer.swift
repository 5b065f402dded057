//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Fuzzes the strict JSON reader and the clinical records made from FHIR resources.
///
/// The first byte of an input picks the reader's limits (defaults, or a depth of 4 and 512 bytes);
/// the rest is the document. Reading must give the same value or the same error twice, anything but
/// a ``CadenceError`` is a failure, and a resource read as a clinical record must be stored and
/// read back from an in-memory store exactly as it was made, its JSON byte for byte.
enum JSONFuzzer {
    static func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let body = Array(input.dropFirst())
        let limits = selector & 1 == 0 ? JSONReader.Limits() : JSONReader.Limits(maxBytes: 512, maxDepth: 4)
        let first = read(body, limits: limits)
        let second = read(body, limits: limits)
        if first.value != second.value || first.error != second.error {
            fuzzFailure("the JSON reader reads the same bytes differently:\n\(first)\n\(second)")
        }
        guard first.value != nil else { return }
        let record: ClinicalRecord
        do {
            record = try ClinicalRecord(json: Data(body), source: Source(name: "fuzz"), path: "record.json")
        } catch is CadenceError {
            return
        } catch {
            fuzzFailure("a clinical record threw a non-Cadence error: \(error)")
        }
        do {
            let store = HealthStore.inMemory()
            try store.save([record])
            let stored = try store.execute(SampleQuery(clinicalType: record.clinicalType, includingResourceData: true))
            if stored != [record] {
                fuzzFailure("a clinical record reads back differently:\n\(record)\n\(stored)")
            }
        } catch {
            fuzzFailure("storing a clinical record failed: \(error)")
        }
    }

    static func read(_ bytes: [UInt8], limits: JSONReader.Limits) -> (value: JSONReader.Value?, error: CadenceError?) {
        do {
            return (try JSONReader.read(bytes, path: "record.json", limits: limits), nil)
        } catch let error as CadenceError {
            return (nil, error)
        } catch {
            fuzzFailure("the JSON reader threw a non-Cadence error: \(error)")
        }
    }
}
