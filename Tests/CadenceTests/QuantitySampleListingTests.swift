//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// A quantity sample query's listing in columns lists what the query returns: the same samples,
/// UUIDs and attributes, in the same order, under the same limit, with deleted samples left out.
@Suite("Quantity sample listings")
struct QuantitySampleListingTests {
    @Test func listingIsTheSampleQuery() throws {
        let store = HealthStore.inMemory()
        let data = SyntheticHealthData(profile: .realistic, seed: 3, startTimestamp: SyntheticHealthData.defaultStartTimestamp,
                                       size: .days(3))
        try data.generate(batchSize: 5_000) { batch in _ = try store.save(batch) }
        try store.flush()
        // Unflushed samples and deleted ones beside the chunks.
        try data.generate(batchSize: 5_000) { batch in _ = try store.save(batch) }
        let some = try store.execute(SampleQuery(quantityType: .heartRate, limit: 50))
        _ = try store.deleteSamples(withUUIDs: some.map(\.uuid))
        let day = Date(timeIntervalSince1970: Double(SyntheticHealthData.defaultStartTimestamp) / 1e6 + 86_400)
        let queries: [SampleQuery<QuantitySample>] = [
            SampleQuery(quantityType: .heartRate),
            SampleQuery(quantityType: .stepCount, limit: 17, sortDescriptors: [.startDate(ascending: false)]),
            SampleQuery(quantityType: .activeEnergyBurned, predicate: .samples(start: day, end: day.addingTimeInterval(3_600 * 5)),
                        sortDescriptors: [.endDate(ascending: false), .startDate(ascending: true)]),
            SampleQuery(quantityType: .bodyMass),
            SampleQuery(quantityType: .distanceCycling),
        ]
        for query in queries {
            let samples = try store.execute(query)
            let listing = try #require(try store.listing(query, of: .heartRate))
            #expect(listing.rows.count == samples.count)
            for (index, sample) in samples.enumerated() where index < listing.rows.count {
                let row = listing.rows[index]
                let columns = listing.portions[Int(row.portion)]
                let at = Int(row.row)
                let provenance = listing.provenances[Int(columns.provenance[at])]
                    .restoringDeviceAddress(columns.deviceAddress(at: at))
                #expect(listing.uuid(at: index) == sample.uuid)
                #expect(Date(timestamp: columns.start[at]) == sample.startDate && Date(timestamp: columns.end[at]) == sample.endDate)
                #expect(columns.value[at] == sample.value)
                #expect(provenance.source == sample.source && provenance.sourceVersion == sample.sourceVersion)
                #expect(provenance.device == sample.device)
                #expect(columns.metadata(at: at) == sample.metadata)
                #expect(columns.creation(at: at).map { Date(timestamp: $0) } == sample.creationDate)
            }
        }
    }
}
