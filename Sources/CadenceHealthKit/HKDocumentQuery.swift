//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// CDA documents (HealthKit's `HKDocumentQuery`), run as Cadence's `DocumentQuery`.
///
///     let byAuthor = HKQuery.predicateForCDADocuments(withAuthorName: "Henry Seven")
///     let query = HKDocumentQuery(documentType: cda, predicate: byAuthor, limit: HKObjectQueryNoLimit,
///                                 sortDescriptors: nil, includeDocumentData: false) { query, documents, done, error in … }
///     healthStore.execute(query)
///
/// The handler is called with the documents in batches, the last call with `done` true (and an
/// empty batch when there is nothing more), or once with an error. Without `includeDocumentData`
/// each ``HKCDADocumentSample/document`` carries its header fields but no data, and no document
/// body is read from disk.
public final class HKDocumentQuery: HKQuery, @unchecked Sendable {
    // Immutable after init: safe to share across threads.

    /// The handler of each batch of results.
    public typealias ResultsHandler = @Sendable (HKDocumentQuery, [HKDocumentSample]?, Bool, (any Error)?) -> Void

    /// The most documents to return; ``HKObjectQueryNoLimit`` for all.
    public let limit: Int
    /// The order of the results: by start or end date.
    public let sortDescriptors: [NSSortDescriptor]?
    /// Whether each document comes with its XML.
    public let includeDocumentData: Bool
    private let resultsHandler: ResultsHandler

    /// The documents in a batch, so that a large listing reaches the handler in pieces.
    static let batchSize = 100

    /// A query of the documents of `documentType` that `predicate` selects (all when `nil`).
    public init(documentType: HKDocumentType, predicate: NSPredicate?, limit: Int, sortDescriptors: [NSSortDescriptor]?,
                includeDocumentData: Bool, resultsHandler: @escaping ResultsHandler) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.includeDocumentData = includeDocumentData
        self.resultsHandler = resultsHandler
        super.init(objectType: documentType, predicate: predicate)
    }

    /// The Cadence query this one runs.
    ///
    /// - Throws: `CadenceError` (`invalidArgument`) for a predicate the factories did not make or
    ///   a sort key other than the start and end dates.
    var cadenceQuery: DocumentQuery {
        get throws {
            DocumentQuery(predicate: try cadencePredicate, limit: limit,
                          sortDescriptors: try SampleSortDescriptor.translating(sortDescriptors),
                          includeDocumentData: includeDocumentData)
        }
    }

    override func start(on store: HealthStore) {
        perform({ try cadenceQuery }) { query in
            let documents: [HKDocumentSample] = try store.execute(query).map(HKCDADocumentSample.init)
            var start = 0
            repeat {
                let end = min(start + Self.batchSize, documents.count)
                self.resultsHandler(self, Array(documents[start..<end]), end == documents.count, nil)
                start = end
            } while start < documents.count
        }
    }

    override func fail(_ error: any Error) {
        resultsHandler(self, nil, true, error)
    }
}
