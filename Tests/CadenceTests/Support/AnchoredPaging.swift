//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
@testable import Cadence

extension HealthStore {
    /// Pages through the changes after `query`'s anchor with a random limit per page (1 to
    /// `maxLimit`), applying each page to `seen` (samples added by UUID, deleted objects removed),
    /// and leaves the last page's anchor in `query`.
    func pageChanges<Sample>(_ query: inout AnchoredObjectQuery<Sample>, into seen: inout [UUID: Sample], maxLimit: Int,
                             random: inout TestRandom, uuid: KeyPath<Sample, UUID>) throws {
        var page: AnchoredObjectQuery<Sample>.Result
        repeat {
            query.limit = Int.random(in: 1...maxLimit, using: &random)
            page = try execute(query)
            for sample in page.samples { seen[sample[keyPath: uuid]] = sample }
            for deleted in page.deletedObjects { seen[deleted.uuid] = nil }
            query.anchor = page.anchor
        } while page.hasMore
    }

    /// Changes the store at random, one transaction each: saves up to `maxAdded` new samples made
    /// by `make` (through `save`, the kind's save), then deletes each stored sample with chance
    /// 1 in `deleteOneIn`; `current` (samples by UUID) follows.
    func changeAtRandom<Sample>(_ current: inout [UUID: Sample], maxAdded: Int, deleteOneIn: Int, random: inout TestRandom,
                                uuid: KeyPath<Sample, UUID>, make: (inout TestRandom) throws -> Sample,
                                save: ([Sample]) throws -> Void) throws {
        let added = try (0..<Int.random(in: 0...maxAdded, using: &random)).map { _ in try make(&random) }
        try save(added)
        for sample in added { current[sample[keyPath: uuid]] = sample }
        let doomed = current.keys.sorted { $0.uuidString < $1.uuidString }
            .filter { _ in Int.random(in: 0..<deleteOneIn, using: &random) == 0 }
        try deleteSamples(withUUIDs: doomed)
        for uuid in doomed { current[uuid] = nil }
    }
}
