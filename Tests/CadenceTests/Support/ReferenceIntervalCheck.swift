//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing
@testable import Cadence

/// Checks one interval of a quantity collection whose sources do not overlap against the
/// reference over `samples` (those near the interval suffice): empty exactly when the reference
/// is; each statistic `options` asks for equal to the reference's and absent when not asked for;
/// with `separateBySource`, the average or sum of each of `sources` too. Returns whether the
/// interval has samples.
@discardableResult
func expectAgreesWithReference(_ statistics: Statistics, samples: [ReferenceSample], type: QuantityType,
                               options: StatisticsOptions, sources: [Provenance], context: Comment) -> Bool {
    let b0 = statistics.startDate.timestamp
    let b1 = statistics.endDate.timestamp
    let style = type.aggregationStyle
    let expected = ReferenceInterval(samples: samples, start: b0, end: b1, style: style, mergesSources: false)
    #expect(statistics.isEmpty == (expected.count == 0), context)
    guard expected.count > 0 else { return false }
    func wanted<T>(_ option: StatisticsOptions, _ value: T?) -> T? { options.contains(option) ? value : nil }
    let discrete = style.isDiscrete
    if discrete {
        #expect(nearlyEqual(statistics.averageQuantity()?.value, wanted(.discreteAverage, expected.average)), context)
        #expect(statistics.minimumQuantity()?.value == wanted(.discreteMin, expected.minimum), context)
        #expect(statistics.maximumQuantity()?.value == wanted(.discreteMax, expected.maximum), context)
    } else {
        // Sources that never overlap: the merged sum is the plain sum.
        #expect(nearlyEqual(statistics.sumQuantity()?.value, wanted(.cumulativeSum, expected.sum)), context)
    }
    #expect(statistics.mostRecentQuantity()?.value == wanted(.mostRecent, expected.mostRecent), context)
    if options.contains(.separateBySource) {
        for provenance in sources {
            let own = ReferenceInterval(samples: samples.filter { $0.source == provenance.source.name },
                                        start: b0, end: b1, style: style, mergesSources: false)
            let actual = discrete ? statistics.averageQuantity(for: provenance.source)?.value
                : statistics.sumQuantity(for: provenance.source)?.value
            let option: StatisticsOptions = discrete ? .discreteAverage : .cumulativeSum
            let ownValue = own.count == 0 ? nil : discrete ? own.average : own.sum
            #expect(nearlyEqual(actual, wanted(option, ownValue)), context)
        }
    }
    return true
}
