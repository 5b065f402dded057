//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// `cadence samples` shows each sample's device as the export wrote it, object address included,
/// and its CSV output re-imports to the same listing.
@Suite("Device descriptions on the command line")
struct DeviceAddressCommandTests {
    @Test("samples lists the export's device strings byte for byte, and its CSV re-imports to the same listing")
    func devicesRoundTripThroughCSV() throws {
        let store = try Fixtures.hkimportStore.get().store
        let export = try String(contentsOf: try Fixtures.hkimportExport.get(), encoding: .utf8)
        let directory = try TemporaryDirectory()
        // The type whose samples carry the export's devices (heart rates there have none).
        let type = "stepCount"
        let csv = try CadenceBinary.succeed(["samples", "--store", store, "--type", type, "--format", "csv"]).standardOutput
        // Every listed address is one the export wrote (as `&lt;&lt;HKDevice: 0x…&gt;`).
        let listed = csv.components(separatedBy: "<<HKDevice: 0x").dropFirst().map { String($0.prefix { $0 != ">" }) }
        let exported = export.components(separatedBy: "&lt;&lt;HKDevice: 0x").dropFirst().map { String($0.prefix { $0 != "&" }) }
        #expect(listed.count > 100)
        #expect(Set(listed).isSubset(of: Set(exported)))
        #expect(!csv.contains("<<HKDevice>"))
        let json = try CadenceBinary.succeed(["samples", "--store", store, "--type", type, "--format", "json"]).standardOutput
        #expect(json.components(separatedBy: "<<HKDevice: 0x").count == listed.count + 1)

        let file = directory.path("\(type).csv")
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        let copy = directory.path("\(type)-store")
        try CadenceBinary.succeed(["import", file, "--store", copy])
        let again = try CadenceBinary.succeed(["samples", "--store", copy, "--type", type, "--format", "csv"]).standardOutput
        #expect(again == csv)
    }
}
