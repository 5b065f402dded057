//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

extension HKHealthStore {
    /// The handler of a save or delete.
    public typealias CompletionHandler = @Sendable (Bool, (any Error)?) -> Void

    /// Saves `object` on a background queue, then calls `completion` there.
    public func save(_ object: HKObject, withCompletion completion: @escaping CompletionHandler) {
        save([object], withCompletion: completion)
    }

    /// Saves `objects` on a background queue, then calls `completion` there.
    ///
    /// Quantity samples, category samples and correlations (with their members) are saved
    /// kind by kind, each kind in one Cadence transaction. An object whose UUID is already
    /// stored is left as it is.
    public func save(_ objects: [HKObject], withCompletion completion: @escaping CompletionHandler) {
        DispatchQueue.global().async {
            do {
                try self.saveNow(objects)
                completion(true, nil)
            } catch {
                completion(false, error)
            }
        }
    }

    /// Saves `object`.
    ///
    /// - Throws: The error that stopped the save (an invalid sample, an unwritable store).
    public func save(_ object: HKObject) async throws {
        try await save([object])
    }

    /// Saves `objects`, kind by kind, as the completion-handler form does.
    ///
    /// - Throws: The error that stopped the save (an invalid sample, an unwritable store).
    public func save(_ objects: [HKObject]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            save(objects) { _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// Deletes `object` on a background queue, then calls `completion` there.
    public func delete(_ object: HKObject, withCompletion completion: @escaping CompletionHandler) {
        delete([object], withCompletion: completion)
    }

    /// Deletes `objects` (by UUID, in one Cadence transaction) on a background queue, then calls
    /// `completion` there. Anchored queries then report them as deleted objects.
    public func delete(_ objects: [HKObject], withCompletion completion: @escaping CompletionHandler) {
        let uuids = objects.map(\.uuid)
        DispatchQueue.global().async {
            do {
                try self.opened.get().deleteSamples(withUUIDs: uuids)
                completion(true, nil)
            } catch {
                completion(false, error)
            }
        }
    }

    /// Deletes `object`.
    ///
    /// - Throws: The error that stopped the delete.
    public func delete(_ object: HKObject) async throws {
        try await delete([object])
    }

    /// Deletes `objects`.
    ///
    /// - Throws: The error that stopped the delete.
    public func delete(_ objects: [HKObject]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            delete(objects) { _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// Deletes every sample of `objectType` that `predicate` selects, on a background queue, then
    /// calls `completion` there with the number deleted.
    public func deleteObjects(of objectType: HKObjectType, predicate: NSPredicate,
                              withCompletion completion: @escaping @Sendable (Bool, Int, (any Error)?) -> Void) {
        let selection = Result { try SamplePredicate(translating: predicate) }
        DispatchQueue.global().async {
            do {
                let store = try self.opened.get()
                let selection = try selection.get()
                let deleted: Int
                switch (objectType as? HKSampleType)?.series {
                case .quantity(let type): deleted = try store.deleteSamples(of: type, matching: selection)
                case .category(let type): deleted = try store.deleteSamples(of: type, matching: selection)
                case .correlation(let type): deleted = try store.deleteSamples(of: type, matching: selection)
                case .document:
                    deleted = try store.deleteSamples(withUUIDs: store.execute(DocumentQuery(predicate: selection)).map(\.uuid))
                case .clinical:
                    throw CadenceError(.invalidArgument, "clinical records come from health records and cannot be deleted")
                case nil: throw CadenceError(.invalidArgument, "\(objectType.identifier) is not a sample type")
                }
                completion(true, deleted, nil)
            } catch {
                completion(false, 0, error)
            }
        }
    }

    /// Saves `objects` in this thread, kind by kind.
    private func saveNow(_ objects: [HKObject]) throws {
        let store = try opened.get()
        var quantities: [QuantitySample] = []
        var categories: [CategorySample] = []
        var correlations: [Correlation] = []
        var documents: [CDADocumentSample] = []
        for object in objects {
            guard let sample = object as? HKSample else {
                throw CadenceError(.invalidArgument, "\(type(of: object)) cannot be saved")
            }
            switch try sample.cadenceObject {
            case .quantity(let quantity): quantities.append(quantity)
            case .category(let category): categories.append(category)
            case .correlation(let correlation): correlations.append(correlation)
            case .document(let document): documents.append(document)
            }
        }
        if !quantities.isEmpty { try store.save(quantities) }
        if !categories.isEmpty { try store.save(categories) }
        if !correlations.isEmpty { try store.save(correlations) }
        if !documents.isEmpty { try store.save(documents) }
    }
}
