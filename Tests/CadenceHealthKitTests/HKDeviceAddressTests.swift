//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
@testable import CadenceHealthKit
import Testing

/// An `HKDevice` is equal to another by its fields, whatever object address the export wrote
/// into each one's description.
@Suite("HKDevice equality")
struct HKDeviceAddressTests {
    @Test("devices differing only in their object address are equal, with equal hashes")
    func addressIsNotAField() {
        let first = HKDevice(cadence: Device(description: "<<HKDevice: 0x282e86490>, name:iPhone, model:iPhone>"))
        let second = HKDevice(cadence: Device(description: "<<HKDevice: 0x1c0093ab0>, name:iPhone, model:iPhone>"))
        let other = HKDevice(cadence: Device(description: "<<HKDevice: 0x282e86490>, name:iPad, model:iPad>"))
        #expect(first.isEqual(second) && first.hash == second.hash)
        #expect(!first.isEqual(other))
        #expect(Set([first, second, other]).count == 2)
    }
}
