//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The entry point of HealthKit-style code (HealthKit's `HKHealthStore`): a Cadence store that
/// runs ``HKQuery`` objects and saves and deletes ``HKObject`` values.
///
///     let healthStore = HKHealthStore()                       // $CADENCE_HEALTH_STORE, else ./health.cadence
///     let healthStore = HKHealthStore(url: URL(fileURLWithPath: "/data/jane.cadence"))
///     healthStore.execute(query)
///
/// Every query is run by the matching query of the Cadence module on the wrapped
/// `HealthStore`, so the answers are the Cadence API's. A store that cannot be opened (locked
/// by another writer, damaged) does not stop the process: each query, save and delete reports
/// the error to its handler.
///
/// There is no user to ask for permission on a server: authorization always answers as for a
/// user who granted everything.
public final class HKHealthStore: NSObject, Sendable {
    /// The environment variable naming the store directory that ``init()`` opens.
    public static let storePathEnvironmentVariable = "CADENCE_HEALTH_STORE"
    /// The store directory ``init()`` opens when ``storePathEnvironmentVariable`` is not set,
    /// relative to the current directory.
    public static let defaultStorePath = "health.cadence"

    /// The Cadence store, or why it could not be opened.
    let opened: Result<HealthStore, any Error>

    /// Opens (creating it if needed) the store named by the `CADENCE_HEALTH_STORE` environment
    /// variable, else `health.cadence` in the current directory.
    public override convenience init() {
        let path = ProcessInfo.processInfo.environment[Self.storePathEnvironmentVariable] ?? Self.defaultStorePath
        self.init(path: path)
    }

    /// Opens (creating it if needed) the store in the directory at `url`.
    public convenience init(url: URL) {
        self.init(path: url.path)
    }

    /// Opens (creating it if needed) the store in the directory at `path`.
    public init(path: String) {
        opened = Result { try HealthStore.open(at: path) }
    }

    /// Wraps a store already open, such as `HealthStore.inMemory()`.
    public init(store: HealthStore) {
        opened = .success(store)
    }

    /// The Cadence store, for code that mixes both APIs.
    ///
    /// - Throws: The error that kept the store from opening.
    public var store: HealthStore {
        get throws { try opened.get() }
    }

    // MARK: Queries

    /// Starts `query`; its handlers run on a background queue.
    public func execute(_ query: HKQuery) {
        query.execute(in: self)
    }

    /// Stops `query`: no handler call of it starts after this returns, and a long-running query
    /// stops following the store.
    public func stop(_ query: HKQuery) {
        query.run.stop()
    }

    // MARK: Authorization

    /// Always `true`: the data is in the store, not on a device.
    public class func isHealthDataAvailable() -> Bool { true }

    /// Answers `true` at once (on a background queue): there is no user to ask on a server.
    public func requestAuthorization(toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?,
                                     completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion(true, nil) }
    }

    /// Returns at once: there is no user to ask on a server.
    public func requestAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws {}

    /// Always ``HKAuthorizationStatus/sharingAuthorized``.
    public func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus { .sharingAuthorized }

    /// The earliest date samples may have: `Date.distantPast`, as a server keeps all of them.
    public func earliestPermittedSampleDate() -> Date { .distantPast }

    // MARK: Background delivery

    /// Answers `true` at once (on a background queue): observer queries are notified of every
    /// committed change as it happens, with no app to wake.
    public func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency,
                                         withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion(true, nil) }
    }

    /// Returns at once: observer queries are notified of every committed change as it happens.
    public func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency) async throws {}

    /// Answers `true` at once (on a background queue): there is no background delivery to stop.
    public func disableBackgroundDelivery(for type: HKObjectType,
                                          withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion(true, nil) }
    }

    /// Answers `true` at once (on a background queue): there is no background delivery to stop.
    public func disableAllBackgroundDelivery(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion(true, nil) }
    }
}

/// How often an app asks to be woken for new samples (HealthKit's `HKUpdateFrequency`); on a
/// server observer queries are notified of every change at once, whatever the frequency.
public enum HKUpdateFrequency: Int, Sendable {
    /// At every change.
    case immediate = 1
    /// At most once an hour.
    case hourly = 2
    /// At most once a day.
    case daily = 3
    /// At most once a week.
    case weekly = 4
}

/// Whether an app may save a type (HealthKit's `HKAuthorizationStatus`).
public enum HKAuthorizationStatus: Int, Sendable {
    /// Not asked yet.
    case notDetermined = 0
    /// Refused.
    case sharingDenied = 1
    /// Granted: what ``HKHealthStore/authorizationStatus(for:)`` always answers.
    case sharingAuthorized = 2
}
