//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The hardware that recorded a sample (HealthKit's `HKDevice`).
///
/// Apple Health exports write a device as one string,
/// `<<HKDevice: 0x…>, name:Apple Watch, manufacturer:Apple, model:Watch, hardware:Watch2,4, software:4.3.1>`;
/// ``init(description:)`` keeps that string and parses its fields.
public struct Device: Hashable, Sendable, Codable {
    /// The description string as it arrived, if the device came from one.
    public var rawDescription: String?
    /// The device's name, such as `Apple Watch`.
    public var name: String?
    /// The manufacturer, such as `Apple Inc.`.
    public var manufacturer: String?
    /// The model, such as `Watch` or `iPhone`.
    public var model: String?
    /// The hardware version, such as `Watch2,4`.
    public var hardwareVersion: String?
    /// The software version, such as `4.3.1`.
    public var softwareVersion: String?

    /// Creates a device from its fields.
    public init(name: String? = nil, manufacturer: String? = nil, model: String? = nil,
                hardwareVersion: String? = nil, softwareVersion: String? = nil) {
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.hardwareVersion = hardwareVersion
        self.softwareVersion = softwareVersion
    }

    /// Parses an export's device string; fields it cannot find stay `nil`.
    ///
    /// Field values may contain commas (`hardware:Watch2,4`), so a field runs until the next
    /// `, key:` of a known key rather than the next comma.
    ///
    /// **[Cadence rule]** The string is kept verbatim, byte for byte, object address included
    /// (`<<HKDevice: 0x1c0093ab0>, …`). Exports write a different address on nearly every record,
    /// so the address takes no part in a sample's identity, and a store keeps it with each sample
    /// rather than in its source dictionary (<doc:HowCadenceComputes#Identity>).
    public init(description: String) {
        self.init()
        rawDescription = description
        var text = Substring(description)
        if text.hasPrefix("<") { text = text.dropFirst() }
        if text.hasSuffix(">") { text = text.dropLast() }
        let keys = ["name", "manufacturer", "model", "hardware", "software", "localIdentifier", "UDIDeviceIdentifier",
                    "firmware", "FDAUDI"]
        // Find every ", key:" occurrence and cut the string there.
        var cuts: [(range: Range<Substring.Index>, key: String)] = []
        for key in keys {
            var searchStart = text.startIndex
            while let found = text[searchStart...].range(of: key + ":") {
                let isFieldStart = found.lowerBound == text.startIndex
                    || text[text.index(before: found.lowerBound)] == " "
                if isFieldStart { cuts.append((found, key)) }
                searchStart = found.upperBound
            }
        }
        cuts.sort { $0.range.lowerBound < $1.range.lowerBound }
        for (index, cut) in cuts.enumerated() {
            let end = index + 1 < cuts.count ? cuts[index + 1].range.lowerBound : text.endIndex
            var value = text[cut.range.upperBound..<end]
            while value.last == " " || value.last == "," { value = value.dropLast() }
            let field = String(value)
            switch cut.key {
            case "name": name = field
            case "manufacturer": manufacturer = field
            case "model": model = field
            case "hardware": hardwareVersion = field
            case "software": softwareVersion = field
            default: break
            }
        }
    }

    /// The description string: the raw one if the device was parsed from one, else one built in
    /// the export's format.
    public var descriptionString: String {
        if let rawDescription { return rawDescription }
        var fields: [String] = []
        if let name { fields.append("name:\(name)") }
        if let manufacturer { fields.append("manufacturer:\(manufacturer)") }
        if let model { fields.append("model:\(model)") }
        if let hardwareVersion { fields.append("hardware:\(hardwareVersion)") }
        if let softwareVersion { fields.append("software:\(softwareVersion)") }
        return "<<HKDevice>, " + fields.joined(separator: ", ") + ">"
    }

    /// Whether the device is an Apple Watch (manufacturer starting with "Apple", model "Watch"),
    /// which ranks first among unlisted sources when merging (<doc:HowCadenceComputes#Merging-sources>).
    public var isAppleWatch: Bool { isApple && (model?.hasPrefix("Watch") ?? false) }

    /// Whether the manufacturer starts with "Apple".
    public var isApple: Bool { manufacturer?.hasPrefix("Apple") ?? false }
}

extension Device {
    /// Byte-exact, field by field (see How Cadence computes, Identity).
    public static func == (lhs: Device, rhs: Device) -> Bool {
        lhs.rawDescription.isIdentical(to: rhs.rawDescription) && lhs.name.isIdentical(to: rhs.name)
            && lhs.manufacturer.isIdentical(to: rhs.manufacturer) && lhs.model.isIdentical(to: rhs.model)
            && lhs.hardwareVersion.isIdentical(to: rhs.hardwareVersion)
            && lhs.softwareVersion.isIdentical(to: rhs.softwareVersion)
    }

    /// Hashes the UTF-8 bytes, consistent with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        for field in [rawDescription, name, manufacturer, model, hardwareVersion, softwareVersion] {
            hasher.combineBytes(of: field)
        }
    }
}
