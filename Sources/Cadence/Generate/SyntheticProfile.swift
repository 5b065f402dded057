//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The kind of data ``SyntheticHealthData`` generates.
///
/// The raw values are the names the command line accepts (`cadence generate --profile dense`).
public enum SyntheticProfile: String, CaseIterable, Sendable {
    /// One person's Apple Health data, as the Health app would hold it.
    ///
    /// Four types from three sources: Apple Watch heart rate every 4–6 minutes (every 5 seconds
    /// during a daily 30–60-minute workout, lower while asleep, and none while the watch
    /// charges); step counts from both the iPhone and the Watch that cover the same walks with
    /// different totals, so a naive sum double counts; per-minute active energy from the Watch;
    /// and a morning body-mass reading from a scale app on most days. Nights have no steps.
    /// About 1,800 samples a day.
    case realistic

    /// Heart rate only, one zero-length sample every 5 seconds exactly, from a single Watch
    /// source, with integer values following a smooth random walk: 17,280 samples a day. Meant
    /// for benchmarks, where the number of samples matters more than their variety.
    case dense
}
