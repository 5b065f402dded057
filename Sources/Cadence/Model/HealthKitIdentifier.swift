//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// HealthKit's long names from the short forms people type.
enum HealthKitIdentifier {
    /// `name` with `prefix`: unchanged when it has it already, else the prefix and `name` with an
    /// uppercase first letter (`running` → `HKWorkoutActivityTypeRunning`).
    static func prefixed(_ name: String, _ prefix: String) -> String {
        if name.hasExactPrefix(prefix) { return name }
        return prefix + (name.first.map { $0.uppercased() + name.dropFirst() } ?? "")
    }
}
