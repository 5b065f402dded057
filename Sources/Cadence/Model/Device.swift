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
    /// The fields, shared by every copy: each sample carries its device, and copying one
    /// reference instead of six strings keeps listing many samples cheap. A change makes a new
    /// box, so copies never see each other's changes.
    private var box: Box

    /// The description string as it arrived, if the device came from one.
    public var rawDescription: String? {
        get { box.fields.rawDescription }
        set { update { $0.rawDescription = newValue } }
    }
    /// The device's name, such as `Apple Watch`.
    public var name: String? {
        get { box.fields.name }
        set { update { $0.name = newValue } }
    }
    /// The manufacturer, such as `Apple Inc.`.
    public var manufacturer: String? {
        get { box.fields.manufacturer }
        set { update { $0.manufacturer = newValue } }
    }
    /// The model, such as `Watch` or `iPhone`.
    public var model: String? {
        get { box.fields.model }
        set { update { $0.model = newValue } }
    }
    /// The hardware version, such as `Watch2,4`.
    public var hardwareVersion: String? {
        get { box.fields.hardwareVersion }
        set { update { $0.hardwareVersion = newValue } }
    }
    /// The software version, such as `4.3.1`.
    public var softwareVersion: String? {
        get { box.fields.softwareVersion }
        set { update { $0.softwareVersion = newValue } }
    }

    /// The stored fields; their names are the keys a device is encoded with.
    private struct Fields: Codable, Sendable {
        var rawDescription: String?
        var name: String?
        var manufacturer: String?
        var model: String?
        var hardwareVersion: String?
        var softwareVersion: String?
    }

    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    /// Replaces the box with a changed copy of its fields (other copies keep the old box).
    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = box.fields
        change(&fields)
        box = Box(fields)
    }

    /// Creates a device from its fields.
    public init(name: String? = nil, manufacturer: String? = nil, model: String? = nil,
                hardwareVersion: String? = nil, softwareVersion: String? = nil) {
        box = Box(Fields(name: name, manufacturer: manufacturer, model: model, hardwareVersion: hardwareVersion,
                         softwareVersion: softwareVersion))
    }

    /// Decodes a device from the keys ``encode(to:)`` writes (the field names).
    public init(from decoder: any Decoder) throws {
        box = Box(try Fields(from: decoder))
    }

    /// Encodes the fields under their names, as a device with plain stored fields would.
    public func encode(to encoder: any Encoder) throws {
        try box.fields.encode(to: encoder)
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
        var fields = Fields(rawDescription: description)
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
            case "name": fields.name = field
            case "manufacturer": fields.manufacturer = field
            case "model": fields.model = field
            case "hardware": fields.hardwareVersion = field
            case "software": fields.softwareVersion = field
            default: break
            }
        }
        box = Box(fields)
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
        if lhs.box === rhs.box { return true }
        return lhs.rawDescription.isIdentical(to: rhs.rawDescription) && lhs.name.isIdentical(to: rhs.name)
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
