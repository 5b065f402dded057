//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// HealthKit code as an app writes it, against HealthKit's documented API: only the first import
// below differs (it reads `import HealthKit` in the app).
import CadenceHealthKit
import Foundation

/// What one sync sent to the server.
struct SyncBatch: Sendable {
    var added: [UUID]
    var deleted: [UUID]
}

/// Keeps a server's copy of the step samples up to date: each sync sends what was added and
/// deleted since the last one, and keeps the anchor, archived, for the next run.
final class StepSync: Sendable {
    let healthStore: HKHealthStore
    private let anchorFile: URL

    init(healthStore: HKHealthStore, anchorFile: URL) {
        self.healthStore = healthStore
        self.anchorFile = anchorFile
    }

    private func loadAnchor() -> HKQueryAnchor? {
        guard let data = try? Data(contentsOf: anchorFile) else { return nil }
        return try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
    }

    private func saveAnchor(_ anchor: HKQueryAnchor) throws {
        let data = try NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true)
        try data.write(to: anchorFile, options: .atomic)
    }

    func sync(completion: @escaping @Sendable (Result<SyncBatch, any Error>) -> Void) {
        guard let stepType = HKObjectType.quantityType(forIdentifier: .stepCount) else { return }
        let query = HKAnchoredObjectQuery(type: stepType,
                                          predicate: nil,
                                          anchor: loadAnchor(),
                                          limit: HKObjectQueryNoLimit) { _, samplesOrNil, deletedObjectsOrNil, newAnchor, error in
            guard let samples = samplesOrNil, let deletedObjects = deletedObjectsOrNil, let newAnchor else {
                completion(.failure(error ?? CancellationError()))
                return
            }
            do {
                try self.saveAnchor(newAnchor)
                completion(.success(SyncBatch(added: samples.map(\.uuid), deleted: deletedObjects.map(\.uuid))))
            } catch {
                completion(.failure(error))
            }
        }
        healthStore.execute(query)
    }
}
