//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// A device is a value: its copies share their fields until one changes, and a change is seen by
/// that copy alone; encoding writes the fields under their names.
@Suite("Device values")
struct DeviceValueTests {
    static let watch = "<<HKDevice: 0x283b0c2d0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:9.1>"

    @Test("Changing a copy's field changes that copy only, and equality follows the fields")
    func copiesAreIndependent() {
        let original = Device(description: Self.watch)
        var copy = original
        #expect(copy == original)
        copy.name = "Other"
        #expect(original.name == "Apple Watch" && copy.name == "Other")
        #expect(copy != original)
        copy.name = "Apple Watch"
        #expect(copy == original && copy.hashValue == original.hashValue)
        for field in [\Device.rawDescription, \.manufacturer, \.model, \.hardwareVersion, \.softwareVersion] {
            var changed = original
            changed[keyPath: field] = nil
            #expect(changed[keyPath: field] == nil && original[keyPath: field] != nil && changed != original)
        }
    }

    @Test("A device encodes its fields under their names and decodes to an equal device")
    func codableRoundTrip() throws {
        let device = Device(description: Self.watch)
        let data = try JSONEncoder().encode(device)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(object == ["rawDescription": Self.watch, "name": "Apple Watch", "manufacturer": "Apple Inc.",
                           "model": "Watch", "hardwareVersion": "Watch6,2", "softwareVersion": "9.1"])
        #expect(try JSONDecoder().decode(Device.self, from: data) == device)
        let built = Device(name: "Scale", manufacturer: "Withings")
        #expect(try JSONDecoder().decode(Device.self, from: JSONEncoder().encode(built)) == built)
    }
}
