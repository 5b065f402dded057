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
}
