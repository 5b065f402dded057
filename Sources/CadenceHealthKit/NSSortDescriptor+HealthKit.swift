//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

extension NSSortDescriptor {
    /// A sort descriptor for a sample query by key: ``HKSampleSortIdentifierStartDate`` or
    /// ``HKSampleSortIdentifierEndDate``.
    ///
    /// Linux Foundation has no key-value coding, so its own `init(key:ascending:)` is unavailable;
    /// this one gives the two keys sample queries sort by their key paths
    /// (`\HKSample.startDate`, `\HKSample.endDate`). Any other key makes a descriptor that sample
    /// queries report as an error.
    public convenience init(key: String?, ascending: Bool) {
        switch key {
        case HKSampleSortIdentifierStartDate: self.init(keyPath: \HKSample.startDate, ascending: ascending)
        case HKSampleSortIdentifierEndDate: self.init(keyPath: \HKSample.endDate, ascending: ascending)
        default: self.init(keyPath: \UnsupportedSortKey.key, ascending: ascending)
        }
    }
}

/// The key path of a sort descriptor made with a key sample queries do not sort by.
final class UnsupportedSortKey: NSObject {
    let key = ""
}

/// Which sample date a key path names: `startDate` or `endDate`, for a key path rooted at any
/// sample class.
enum SampleDateKey {
    case start, end

    init?(_ keyPath: AnyKeyPath?) {
        guard let keyPath else { return nil }
        let starts: [AnyKeyPath] = [\HKSample.startDate, \HKQuantitySample.startDate, \HKCategorySample.startDate,
                                    \HKCorrelation.startDate]
        let ends: [AnyKeyPath] = [\HKSample.endDate, \HKQuantitySample.endDate, \HKCategorySample.endDate,
                                  \HKCorrelation.endDate]
        if starts.contains(keyPath) {
            self = .start
        } else if ends.contains(keyPath) {
            self = .end
        } else {
            return nil
        }
    }

    /// Cadence's sort descriptor for this date.
    func descriptor(ascending: Bool) -> SampleSortDescriptor {
        switch self {
        case .start: .startDate(ascending: ascending)
        case .end: .endDate(ascending: ascending)
        }
    }
}

extension SampleSortDescriptor {
    /// Cadence's sort descriptors for a sample query's `NSSortDescriptor`s.
    ///
    /// - Throws: `CadenceError` (`invalidArgument`) for a descriptor that sorts by anything but a
    ///   sample's start or end date.
    static func translating(_ descriptors: [NSSortDescriptor]?) throws -> [SampleSortDescriptor] {
        try (descriptors ?? []).map { descriptor in
            guard let key = SampleDateKey(descriptor.keyPath) else {
                throw CadenceError(.invalidArgument, "sample queries sort by HKSampleSortIdentifierStartDate or HKSampleSortIdentifierEndDate only")
            }
            return key.descriptor(ascending: descriptor.ascending)
        }
    }
}
